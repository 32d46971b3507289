"""Secrets on the host: a game's log holds the whole deck of every hand,
so saved games and card-room tables are their owner's alone (files 0600 in
0700 folders), and an authorized-keys file that others may write is not
trusted (as OpenSSH's StrictModes)."""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess

from commands import crib3_argv

from crib3.engine import Game, PlayerInfo
from crib3.engine.log import LogWriter, make_header, write_log
from crib3.net.keys import keys_file_too_open


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_game_log_is_its_owners_alone(tmp_path):
    old = os.umask(0o022)
    try:
        folder = tmp_path / "games"
        with LogWriter(folder / "g.jsonl", make_header()) as writer:
            game = Game.new([PlayerInfo(n, "easy") for n in ("A", "B", "C")], seed=1,
                            subscribers=[lambda e, s: writer.append(e)])
        assert mode(folder) == 0o700 and mode(folder / "g.jsonl") == 0o600
        write_log(tmp_path / "sim.jsonl", game.events)
        assert mode(tmp_path / "sim.jsonl") == 0o600
    finally:
        os.umask(old)


def test_an_older_looser_log_and_folder_are_tightened_when_written_again(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    game = Game.new([PlayerInfo(n, "easy") for n in ("A", "B", "C")], seed=1)
    write_log(folder / "g.jsonl", game.events)
    os.chmod(folder / "g.jsonl", 0o644)
    with LogWriter(folder / "g.jsonl"):
        pass
    assert mode(folder) == 0o700 and mode(folder / "g.jsonl") == 0o600


def test_card_room_tables_are_the_hosts_alone(tmp_path):
    from crib3.engine import Rules
    from crib3.room import Room

    async def open_and_start():
        room = Room(tmp_path / "tables", think=0.0)
        ann = room.sign_in("ann", "key-a", lambda reason: None)
        table = room.open_table(ann, Rules(target=61), ("easy", "easy"))
        table.start("ann")
        await asyncio.sleep(0.05)
        room.close()
        return table

    table = asyncio.run(open_and_start())
    folder = tmp_path / "tables"
    assert mode(folder) == 0o700
    files = sorted(folder.iterdir())
    assert files and all(mode(f) == 0o600 for f in files), [(f.name, oct(mode(f))) for f in files]
    assert table.number >= 1


def test_an_authorized_keys_file_others_may_write_is_refused(tmp_path):
    keys = tmp_path / "authorized_keys"
    keys.write_text("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOeh4Xq0Dnh8DCSo2d8fQgUnKbp8bgnTpAVdQf"
                    "wxoFnp ann\n")
    os.chmod(keys, 0o600)
    assert keys_file_too_open(keys) is None
    os.chmod(keys, 0o664)
    assert "chmod go-w" in (keys_file_too_open(keys) or "")
    result = subprocess.run([*crib3_argv(), "serve", "--port", "0", "--authorized-keys",
                             str(keys), "--host-key", str(tmp_path / "host_key")],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "CRIB3_HOME": str(tmp_path)})
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"crib3 serve: will not trust the authorized keys: {keys} may be written by others "
        f"(mode 0664): chmod go-w {keys}"]
