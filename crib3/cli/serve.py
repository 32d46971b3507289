"""`crib3 serve`: the card room, from the command line.

This module checks the arguments and says in one line what is wrong, before
anything listens; what makes a keys file usable, and the host key, is the
SSH side's (`crib3.net.keys`), and the serve loop is `crib3.net.serving`,
handed the lobby's app (`CardRoomApp`) as the app each session runs. Only
`crib3.net` speaks SSH: nothing here imports asyncssh.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from crib3.cli.failures import CannotRun, UsageError
from crib3.common.exits import EXIT_OK

if TYPE_CHECKING:
    import argparse

    from crib3.net.keys import HostKey
    from crib3.net.options import ServeOptions
    from crib3.net.web_options import WebOptions


def fingerprint(public_key_line: str) -> str:
    """A public key's fingerprint as `ssh-keygen -lf` and `ssh` show it
    ("SHA256:" and the unpadded base64 of the key's SHA-256), from its
    OpenSSH line: for `--help`, which does not load asyncssh. ValueError
    when the line holds no key."""
    import base64
    import hashlib

    fields = public_key_line.split()
    if len(fields) < 2:
        raise ValueError("no key on the line")
    blob = base64.b64decode(fields[1], validate=True)
    digest = base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
    return f"SHA256:{digest}"


def host_key_help() -> str:
    """`crib3 serve --help`'s last words: the default host key's
    fingerprint, which friends compare with what `ssh` asks them on their
    first visit."""
    from crib3.net.keys import default_host_key

    path = default_host_key().with_suffix(".pub")
    try:
        return (f"host key: {path.with_suffix('')} ({fingerprint(path.read_text())}); "
                "friends check this against what ssh shows them the first time")
    except (OSError, ValueError):
        return ("host key: made on the first start, and its fingerprint shown then "
                "(and here)")


def needs_the_serve_extra() -> None:
    """The doors' libraries are the `serve` extra's, not the game's: without
    them, one line says how to get them (as `--cluster` does for nats-py)."""
    from importlib.util import find_spec

    missing = [module for module in ("asyncssh", "aiohttp") if find_spec(module) is None]
    if missing:
        raise CannotRun(f"the card room needs {' and '.join(missing)}: "
                        "pip install 'crib3[serve]'")


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio

    needs_the_serve_extra()

    from crib3.common.paths import data_dir
    from crib3.net import keys

    if args.port < 0 or args.port > 65535:
        raise UsageError(f"--port {args.port}: a port is 0 to 65535")
    cluster = _cluster_options(args)
    from crib3.tui.textual_compat import card_room_problem

    unable = card_room_problem()
    if unable:  # before anything listens: no session could start
        raise CannotRun(f"cannot serve: {unable}")
    authorized = None
    if not args.open:
        authorized = Path(args.authorized_keys) if args.authorized_keys else \
            keys.default_authorized_keys()
        if not authorized.is_file():
            raise UsageError(f"no authorized keys at {authorized}: put your friends' public "
                             "keys there (one per line), give --authorized-keys FILE, or --open")
        loose = keys.keys_file_too_open(authorized)
        if loose:
            raise CannotRun(f"will not trust the authorized keys: {loose}")
        problem = keys.authorized_keys_problem(authorized)
        if problem:  # it is read again for every connection: it may be mended live
            print(f"warning: nobody can sign in: {authorized} {problem}", file=sys.stderr)
    admins = _admins_file(args.admins) if args.admins else None
    motd = _motd(args)
    from crib3.net.options import CannotServe, ServeOptions, default_workers
    from crib3.net.serving import serve
    from crib3.room import Room
    from crib3.room.results import Results
    from crib3.tui.room_app import CardRoomApp

    web = _web_options(args)
    from crib3.net.gate import Limits, parse_startups

    try:
        start, rate, full = parse_startups(args.max_startups)
    except ValueError as exc:
        raise UsageError(f"--max-startups {args.max_startups}: {exc}") from None
    limits = Limits(start=start, rate=rate, full=full, per_address=args.per_address,
                    auth_tries=args.auth_tries, login_grace=args.login_grace)
    host_key_path = Path(args.host_key) if args.host_key else keys.default_host_key()
    options = ServeOptions(host=args.host, port=args.port, authorized_keys=authorized,
                           open_door=args.open, think=args.think, admins=admins,
                           workers=args.workers or default_workers(),
                           limits=limits, lobby_idle=args.lobby_idle,
                           host_key=host_key_path, web=web, web_folder=data_dir() / "web",
                           metrics=_metrics_listener(args.metrics))
    from crib3.common import server_log

    server_log.configure(args.log_format, args.log_level, sys.stderr)
    server_log.hand_on(args.log_format, args.log_level)  # to the session workers
    try:
        host_key = keys.host_key_at(host_key_path)
    except (ValueError, OSError) as exc:
        raise UsageError(f"cannot use the host key {options.host_key}: {exc}") from None

    def say(line: str) -> None:
        try:
            print(server_log.console_line(line, args.log_format), file=sys.stderr, flush=True)
        except OSError:  # the console is gone: players still get their farewells
            _console_gone()

    if cluster is not None:
        if args.workers and args.workers > 1:
            say("warning: --workers: a cluster's node runs its sessions in its own process "
                "for now")
        options.workers = 1
        if cluster.clear:
            say("warning: --cluster: the NATS credentials cross the network in clear "
                "(give TLS too: tls://, or --cluster-tls-ca FILE)")
        asyncio.run(_serve_node(cluster, args, options, host_key, say))
        return EXIT_OK
    results = None if args.no_ratings else Results(data_dir() / "ratings")
    room = Room(data_dir() / "tables", think=args.think, patience=args.patience,
                idle_close=args.idle_close, tables_per_key=args.tables_per_key,
                names_per_key=args.names_per_key, results=results)
    room.show_pace = args.show_pace
    if motd is not None:
        room.moderation.set_motd(motd, HOST)
    try:
        asyncio.run(serve(options, room, host_key, CardRoomApp, say))
    except CannotServe as exc:
        raise CannotRun(str(exc)) from None
    return EXIT_OK


@dataclass
class ClusterOptions:
    """`--cluster` and its companions, checked."""

    urls: list[str]
    node: str
    creds: Path | None
    tls_ca: Path | None
    lease: float
    shown: str  # the servers as a line may name them (no password)
    clear: bool = False  # credentials beyond loopback without TLS


def _cluster_options(args: argparse.Namespace) -> ClusterOptions | None:
    """`--cluster URL[,URL...]` checked before anything listens: a NATS
    server beyond loopback is spoken to only with credentials or TLS (exit
    2 without); None without `--cluster` (`crib3 serve` as on one machine)."""
    import socket

    from crib3.cli.cluster_urls import cluster_urls, shown

    if args.cluster is None:
        for flag in ("node", "cluster_creds", "cluster_tls_ca"):
            if getattr(args, flag):
                raise UsageError(f"--{flag.replace('_', '-')} is for a cluster's node: "
                                 "give --cluster URL too")
        return None
    creds = Path(args.cluster_creds) if args.cluster_creds else None
    tls_ca = Path(args.cluster_tls_ca) if args.cluster_tls_ca else None
    for path in (creds, tls_ca):
        if path is not None and not path.is_file():
            raise UsageError(f"no such file: {path}")
    servers = cluster_urls(args.cluster)
    clear = False
    for server in servers:
        if server.loopback:
            continue
        tls = server.scheme == "tls" or tls_ca is not None
        if not (creds or server.credentials) and not tls:
            raise UsageError(f"--cluster {server.shown}: a NATS server beyond loopback needs "
                             "credentials (--cluster-creds FILE, or user:password@ in the URL) "
                             "or TLS (tls://, or --cluster-tls-ca FILE)")
        clear = clear or not tls
    node = args.node or f"{socket.gethostname().split('.')[0]}-{args.port}"
    node = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in node)[:64]
    if not node.strip("-_"):
        raise UsageError("--node: a node's name is 1-64 of A-Z a-z 0-9 _ -")
    if args.node and node != args.node:
        raise UsageError(f"--node {args.node!r}: a node's name is 1-64 of A-Z a-z 0-9 _ -")
    return ClusterOptions([server.url for server in servers], node, creds, tls_ca,
                          args.cluster_lease, shown(servers), clear)


async def _serve_node(cluster: ClusterOptions, args: argparse.Namespace, options: ServeOptions,
                      host_key: HostKey, say: Callable[[str], None]) -> None:
    """`crib3 serve --cluster`: this node joins the cluster (one line and
    exit 1 when it cannot), then serves as `serve` does, its room the
    cluster's (`crib3.cluster.room`); stopping lets its tables go to the
    other nodes."""
    import asyncio
    import contextlib
    import ssl

    try:
        import nats
        import nats.errors

        from crib3.cluster.room import ClusterRoom
        from crib3.room.results import Results
    except ImportError:
        raise CannotRun("--cluster needs nats-py: pip install 'crib3[cluster]'") from None
    from crib3.common.paths import data_dir
    from crib3.net.options import CannotServe
    from crib3.net.serving import serve
    from crib3.tui.room_app import CardRoomApp

    auth: dict[str, object] = {}
    if cluster.creds is not None:
        auth["user_credentials"] = str(cluster.creds)
    if cluster.tls_ca is not None:
        auth["tls"] = ssl.create_default_context(cafile=str(cluster.tls_ca))

    async def quiet(error: Exception) -> None:
        pass

    try:  # once, without retrying: a cluster it cannot reach is one line
        probe = await asyncio.wait_for(nats.connect(
            cluster.urls, allow_reconnect=False, connect_timeout=5, max_reconnect_attempts=1,
            error_cb=quiet, **auth), 20)
        await probe.close()
        room = await ClusterRoom.start(
            cluster.urls, cluster.node, data_dir() / "node" / cluster.node,
            lease_seconds=cluster.lease, think=args.think, patience=args.patience,
            tables_per_key=args.tables_per_key, names_per_key=args.names_per_key,
            results=None if args.no_ratings else Results(
                data_dir() / "node" / cluster.node / "ratings"), **auth)
        room.show_pace = args.show_pace
        motd = _motd(args)
        if motd is not None:
            room.moderation.set_motd(motd, HOST)
    except (OSError, ssl.SSLError, TimeoutError, nats.errors.NoServersError) as exc:
        why = "no NATS server answered" if isinstance(
            exc, (TimeoutError, nats.errors.NoServersError)) else str(exc)
        raise CannotRun(f"cannot reach the cluster at {cluster.shown}: {why}") from None
    except Exception as exc:
        if type(exc).__module__.split(".")[0] != "nats":
            raise
        if "authorization violation" in str(exc).lower():
            raise CannotRun(f"cannot join the cluster at {cluster.shown}: its NATS server "
                            "refused this node's credentials (--cluster-creds FILE, or "
                            "user:password@ in the URL)") from None
        raise CannotRun(f"cannot join the cluster at {cluster.shown}: "
                        f"{exc or type(exc).__name__}") from None
    say(f"crib3 serve: node {cluster.node} of the cluster at {cluster.shown}")
    try:
        await serve(options, room, host_key, CardRoomApp, say)
    except CannotServe as exc:
        raise CannotRun(str(exc)) from None
    finally:
        with contextlib.suppress(Exception):
            await room.stop()


HOST = "the host"  # who set the message of the day from the command line, in the audit log


def _motd(args: argparse.Namespace) -> str | None:
    """`--motd TEXT` or `--motd-file FILE`, checked before the server
    starts (exit 2 with one line); None: neither given (the one an admin
    set, if any, stays)."""
    from crib3.room.basics import RoomError
    from crib3.room.moderation import checked_motd

    text: str | None = args.motd
    where = "--motd"
    if args.motd_file is not None:
        where = f"--motd-file {args.motd_file}"
        try:
            text = Path(args.motd_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"{where}: cannot read it ({exc})") from None
    if text is None:
        return None
    try:
        return checked_motd(text)
    except RoomError as exc:
        raise UsageError(f"{where}: {exc}") from None


def _admins_file(name: str) -> Path:
    """The --admins file, checked before the server starts: it must hold
    keys and be readable (else exit 2), and nobody but its owner may write
    it (StrictModes, as for the authorized keys). It is read again for
    every connection, like the authorized keys. Under --open too: an open
    room's admins are the keys listed here, whatever names they take."""
    from crib3.net import keys

    path = Path(name)
    if not path.is_file():
        raise UsageError(f"--admins {path}: no such file")
    loose = keys.keys_file_too_open(path)
    if loose:
        raise CannotRun(f"will not trust the admins' keys: {loose}")
    problem = keys.authorized_keys_problem(path)
    if problem:
        raise UsageError(f"--admins {path} {problem}")
    return path


def _console_gone() -> None:
    """The server's console can no longer be written to (`crib3 serve 2>&1 |
    tee log`, then Ctrl-C: the shell's SIGINT ends tee too). From now on what
    the server would say, its log lines included, goes nowhere, rather than
    raising in the middle of saying goodbye to every player."""
    nowhere = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(nowhere, sys.stderr.fileno())
    finally:
        os.close(nowhere)


def _metrics_listener(text: str | None) -> tuple[str, int] | None:
    """`--metrics [HOST:]PORT`, checked: loopback unless a host is given."""
    if text is None:
        return None
    from crib3.net.web_options import parse_listen

    try:
        return parse_listen(text, "--metrics")
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _web_options(args: argparse.Namespace) -> WebOptions | None:
    """`--web` and its companions, checked (a door open to the network
    without TLS is refused), or None without `--web`."""
    if args.web is None:
        for flag in ("public_url", "tls_cert", "tls_key"):
            if getattr(args, flag):
                raise UsageError(f"--{flag.replace('_', '-')} is for the web door: give --web too")
        return None
    from crib3.net.web_options import WebOptions, WebRefused, check_options, parse_listen

    try:
        host, port = parse_listen(args.web)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    options = WebOptions(host=host, port=port, public_url=args.public_url,
                         tls_cert=Path(args.tls_cert) if args.tls_cert else None,
                         tls_key=Path(args.tls_key) if args.tls_key else None)
    try:
        check_options(options)
    except WebRefused as exc:
        raise UsageError(str(exc)) from None
    for path in (options.tls_cert, options.tls_key):
        if path is not None and not path.is_file():
            raise UsageError(f"no such file: {path}")
    return options


def cmd_invite(args: argparse.Namespace) -> int:
    """`crib3 invite`: a link into the running card room's web door, the
    open links, or one withdrawn."""
    from crib3.common.names import check_name
    from crib3.common.paths import data_dir
    from crib3.room.invites import InviteBook, InviteRefused

    book = InviteBook(data_dir() / "web")
    try:
        book.open()
    except InviteRefused as exc:
        raise CannotRun(str(exc)) from None
    if args.list:
        links = book.open_invites()
        for invite in links:
            hours = max(0.0, (invite.expires - time.time()) / 3600)
            print(f"{invite.hash[:12]}  {invite.name or '(their choice)'}"
                  f"{f'  table {invite.table}' if invite.table is not None else ''}"
                  f"  {hours:.1f} h left  made by {invite.made_by}")
        if not links:
            print("no open invite links")
        return EXIT_OK
    if args.revoke:
        if len(args.revoke) < 6:
            raise UsageError("--revoke ID: give at least the first 6 characters --list shows")
        count = book.revoke(args.revoke)
        if not count:
            raise CannotRun(f"no open invite link has the ID {args.revoke}")
        print(f"withdrew {count} invite link{'s' * (count != 1)}")
        return EXIT_OK
    name = None
    if args.name is not None:
        try:
            name = check_name(args.name)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if args.hours <= 0:
        raise UsageError("--hours: a link must be good for some time")
    url = book.door_url()
    if url is None:
        raise CannotRun("the card room's web door is not open: start crib3 serve --web PORT first")
    try:
        token = book.invite("the host", name=name, table=args.table, hours=args.hours)
    except InviteRefused as exc:
        raise CannotRun(str(exc)) from None
    print(f"{url}/#invite={token}")
    return EXIT_OK
