"""The service unit and the container in docs/: what a host copies to run a
public room. No container engine runs on these machines, so the image's
install is docs/container-build.sh, which .ci/run runs as a script; the
unit is checked by systemd itself, where it is installed."""

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from commands import crib3

DOCS = Path(__file__).resolve().parents[2] / "docs"
CRIB3 = Path(sys.executable).with_name("crib3")


def unit_with_this_crib3(tmp_path: Path) -> Path:
    """docs/crib3.service, its ExecStart pointed at this venv's crib3 (the
    verifier checks that the program is there)."""
    unit = tmp_path / "crib3.service"
    unit.write_text((DOCS / "crib3.service").read_text().replace("/opt/crib3/bin/crib3",
                                                                   str(CRIB3)))
    return unit


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_the_service_unit_is_one_systemd_takes_and_sandboxed(tmp_path):
    unit = unit_with_this_crib3(tmp_path)
    verified = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                              text=True, timeout=60)
    assert verified.returncode == 0, verified.stderr
    security = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)],
                              capture_output=True, text=True, timeout=60)
    level = re.search(r"Overall exposure level for crib3.service: ([0-9.]+)", security.stdout)
    assert level and float(level.group(1)) <= 2.0, security.stdout[-500:]


def test_the_units_and_the_images_commands_are_crib3s(tmp_path):
    """What the unit and the image start is a command crib3 takes."""
    exec_start = re.search(r"^ExecStart=(.+)$", (DOCS / "crib3.service").read_text(), re.M)
    unit_args = shlex.split(exec_start.group(1))[1:]
    assert unit_args[:1] == ["serve"]
    config = tmp_path / "crib3.toml"
    config.write_text(crib3("serve", "--print-config", home=tmp_path).stdout)
    unit_args = [str(config) if arg == "/etc/crib3/crib3.toml" else arg for arg in unit_args]
    assert crib3(*unit_args, "--print-config", home=tmp_path).returncode == 0
    dockerfile = (DOCS / "Dockerfile").read_text()
    entry = json.loads(re.search(r"^ENTRYPOINT (.+)$", dockerfile, re.M).group(1))
    cmd = json.loads(re.search(r"^CMD (.+)$", dockerfile, re.M).group(1))
    assert entry[0] == "/opt/crib3/bin/crib3"
    shown = crib3(*entry[1:], *cmd, "--print-config", home=tmp_path)
    assert shown.returncode == 0 and 'host = "0.0.0.0"' in shown.stdout
    # The image installs with the script .ci/run runs without a container engine.
    assert "sh /src/docs/container-build.sh /opt/crib3 /src" in dockerfile
