"""`crib3 serve --config FILE` and `--print-config`, as a host meets them:
the file's keys are the options' names, the command line wins, and what is
not a setting is refused in one line naming it."""

import subprocess
import sys

import pytest
from commands import assert_clean_failure, crib3, serve_says


def config(tmp_path, text: str):
    path = tmp_path / "crib3.toml"
    path.write_text(text)
    return str(path)


def in_force(tmp_path, *args: str) -> dict[str, str]:
    done = crib3("serve", *args, "--print-config", home=tmp_path)
    assert done.returncode == 0, done.stderr
    return dict(line.split(" = ", 1) for line in done.stdout.splitlines()
                if not line.startswith("#"))


def test_the_file_sets_what_the_command_line_does_not(tmp_path):
    path = config(tmp_path, 'port = 2300\nopen = true\nthink = 0.2\nweb = "127.0.0.1:8099"\n')
    shown = in_force(tmp_path, "--config", path, "--port", "2400")
    assert shown["port"] == "2400"  # the command line wins
    assert shown["open"] == "true" and shown["think"] == "0.2"
    assert shown["web"] == '"127.0.0.1:8099"'
    assert shown["tables-per-key"] == "2"  # the default, where neither says


def test_what_print_config_writes_is_a_config_that_reads_back_the_same(tmp_path):
    first = crib3("serve", "--open", "--think", "1.5", "--node", "Ann's 🃏", "--print-config",
                  home=tmp_path)
    path = config(tmp_path, first.stdout)
    again = crib3("serve", "--config", path, "--print-config", home=tmp_path)
    assert again.stdout == first.stdout


def test_the_command_lines_door_wins_over_the_files(tmp_path):
    keys = tmp_path / "keys"
    path = config(tmp_path, "open = true\n")
    shown = in_force(tmp_path, "--config", path, "--authorized-keys", str(keys))
    assert shown["open"] == "false" and shown["authorized-keys"] == f'"{keys}"'


@pytest.mark.parametrize(("text", "said"), [
    ("prot = 2222\n", "no setting is called 'prot' (did you mean 'port'?)"),
    ("port = true\n", "port: give a number or a string, not true or false"),
    ('port = "x"\n', "port: 'x' is not a whole number"),
    ("open = 1\n", "open: give true or false"),
    ("think = -1\n", "think: '-1': give seconds, 0 or more"),
    ("think = [1]\n", "think: give a number or a string, not a list"),
    ('open = true\nauthorized-keys = "k"\n', "cannot both be set"),
    ("port = [\n", "not TOML"),
    ("config = \"other.toml\"\n", "no setting is called 'config'"),
])
def test_what_is_not_a_setting_is_refused_in_one_line_naming_it(tmp_path, text, said):
    done = crib3("serve", "--config", config(tmp_path, text), home=tmp_path)
    assert_clean_failure(done, 2)
    assert said in done.stderr and "crib3.toml" in done.stderr


def test_a_missing_file_is_one_line(tmp_path):
    done = crib3("serve", "--config", str(tmp_path / "nowhere.toml"), home=tmp_path)
    assert_clean_failure(done, 2)
    assert "nowhere.toml: No such file" in done.stderr


@pytest.mark.slow
def test_a_room_served_from_a_config_file_listens_where_it_says(tmp_path):
    path = config(tmp_path, "open = true\nport = 0\n")
    said = serve_says(tmp_path, "--config", path, lines=2)
    assert "warning: --open" in said[0] and "listening on 127.0.0.1:" in said[1]


def test_printing_the_config_starts_nothing(tmp_path):
    done = subprocess.run([sys.executable, "-m", "crib3", "serve", "--print-config"],
                          capture_output=True, text=True, timeout=60,
                          env={"CRIB3_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0 and "port = 2222" in done.stdout
    assert not (tmp_path / "config").exists()
