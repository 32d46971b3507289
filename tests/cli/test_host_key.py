"""The host key's fingerprint, shown where a host can read it out to friends:
at start and in `crib3 serve --help`, as `ssh-keygen -lf` shows it (and so
as `ssh` asks a friend to accept it on their first visit)."""

import shutil
import subprocess

import pytest
from commands import crib3, serve_says

from crib3.cli.serve import fingerprint


def test_serve_says_its_host_keys_fingerprint_and_help_repeats_it(tmp_path):
    said = serve_says(tmp_path, "--open", "--port", "0", lines=4)
    line = next(line for line in said if "host key" in line)
    pub = tmp_path / "config" / "ssh_host_ed25519_key.pub"
    shown = fingerprint(pub.read_text())
    assert shown in line
    helped = crib3("serve", "--help", home=tmp_path)
    assert helped.returncode == 0
    assert shown in " ".join(helped.stdout.split())


def test_before_the_first_start_help_says_when_the_fingerprint_comes(tmp_path):
    helped = crib3("serve", "--help", home=tmp_path)
    assert helped.returncode == 0
    assert "made on the first start" in " ".join(helped.stdout.split())
    assert not (tmp_path / "config").exists()  # the help makes no key


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs OpenSSH's ssh-keygen")
def test_the_fingerprint_is_ssh_keygens(tmp_path):
    key = tmp_path / "key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True,
                   timeout=30)
    listed = subprocess.run(["ssh-keygen", "-lf", str(key) + ".pub"], check=True,
                            capture_output=True, text=True, timeout=30).stdout.split()[1]
    assert fingerprint((tmp_path / "key.pub").read_text()) == listed
