#!/usr/bin/env bash
# Rebuild the web door's vendored files in crib3/net/web_static/ from the npm
# registry: xterm.js and its fit and Unicode 11 addons (MIT; the Unicode 11
# one gives characters outside the BMP the two cells Rich and Textual give
# them, where xterm's own Unicode 6 widths give one), and the DejaVu Sans Mono font
# (Bitstream Vera licence). Pinned versions, checked against the registry's
# integrity digests; the source-map comments are dropped (no .map is served).
# Needs npm. Run from anywhere: assets/web/vendor.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
out="$here/crib3/net/web_static"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
packages=("@xterm/xterm@6.0.0" "@xterm/addon-fit@0.11.0" "@xterm/addon-unicode11@0.9.0"
          "dejavu-fonts-ttf@2.37.3")
for spec in "${packages[@]}"; do
  want="$(npm view "$spec" dist.integrity)"
  file="$(npm pack "$spec" 2>/dev/null | tail -1)"
  got="sha512-$(openssl dgst -sha512 -binary "$file" | base64 -w0)"
  [ "$want" = "$got" ] || { echo "integrity mismatch for $spec" >&2; exit 1; }
  mkdir -p "${file%.tgz}" && tar xzf "$file" -C "${file%.tgz}"
done
strip_map() { sed '/^\/\/# sourceMappingURL=/d' "$1" > "$2"; }
strip_map xterm-xterm-6.0.0/package/lib/xterm.js "$out/xterm.js"
strip_map xterm-addon-fit-0.11.0/package/lib/addon-fit.js "$out/addon-fit.js"
strip_map xterm-addon-unicode11-0.9.0/package/lib/addon-unicode11.js "$out/addon-unicode11.js"
cp xterm-addon-unicode11-0.9.0/package/LICENSE "$out/LICENSE.xterm-addon-unicode11"
cp xterm-xterm-6.0.0/package/css/xterm.css "$out/xterm.css"
cp xterm-xterm-6.0.0/package/LICENSE "$out/LICENSE.xterm"
cp dejavu-fonts-ttf-2.37.3/package/ttf/DejaVuSansMono.ttf "$out/DejaVuSansMono.ttf"
cp dejavu-fonts-ttf-2.37.3/package/LICENSE "$out/LICENSE.dejavu"
echo "vendored into $out: ${packages[*]}"
