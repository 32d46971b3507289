#!/bin/sh
# Installs crib3's card room into a virtual environment: what the Dockerfile
# beside this runs inside its image, and what .ci/run runs on a machine with
# no container engine (so the image's steps are tried on every change).
#   container-build.sh PREFIX SOURCE
set -eu
prefix=$1
source=$2
python3 -m venv "$prefix"
"$prefix/bin/pip" install --no-cache-dir --quiet "$source[serve]"
"$prefix/bin/crib3" --version
