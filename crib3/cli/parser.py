"""The `crib3` command line's grammar: every command, its options and its
help, and the handler each command runs (`args.run`).

An option that several commands take is written once, as a parent parser
(`_log`, `_ascii`, `_json`, `_seed`, `_think`, `_no_save`); each command
adds the groups it takes where they belong among its own options
(`Parser.add_parents`), so its help reads as it always has. A group whose
words differ from command to command takes its help as an argument: the
option is the same, what it changes is the command's.

Imported only when there are arguments to read: `crib3` alone is read
without argparse (`crib3.cli.play.play_defaults`).
"""

from __future__ import annotations

import argparse

from crib3 import __version__
from crib3.cli.conventions import SHELLS, cmd_completion, cmd_man, cmd_paths
from crib3.cli.play import cmd_play, cmd_resume
from crib3.cli.ratings import cmd_ratings, cmd_ratings_calibrate, cmd_ratings_rebuild
from crib3.cli.saved import cmd_export, cmd_games, cmd_replay, cmd_review, cmd_stats, cmd_verify
from crib3.cli.serve import cmd_invite, cmd_serve, host_key_help
from crib3.cli.study import cmd_practice, cmd_score, cmd_sim
from crib3.cli.tables import cmd_tables_export
from crib3.common.arguments import Parser, at_least_one, hours, seconds, zero_or_more
from crib3.common.exits import EXIT_OK
from crib3.common.pace import SHOW_PACE

SUITS = "suits as S H D C"
FOR_PROGRAMS = "print JSON for programs"
GAME_HELP = ("a saved game: its file, its number or name as `crib3 games` prints it, "
             "or latest")
# What `crib3 serve`'s limits count as one person.
ONE_PERSON = ("one key, or under --open one client address (loopback too: everyone "
              "through a tunnel or proxy on this host shares it)")


def build_parser() -> Parser:
    """The whole command line: `crib3`, its commands and their options."""
    parser = Parser(
        prog="crib3",
        description="Three-player cribbage. With no command, opens the game (crib3 play).",
    )
    parser.add_argument("--version", action="version", version=f"crib3 {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    log, ascii_suits, for_programs, think = _log(), _ascii(), _json(), _think()

    score = commands.add_parser(
        "score", help="count a hand: four cards, then the starter",
        description="Count a hand as a player says it. The last card is the starter.",
        epilog="example: crib3 score 5H 5C 5S JD 5D   (the 29 hand)")
    score.add_argument("cards", nargs="+", metavar="CARD",
                       help="ranks A 2-10 T J Q K, suits S H D C or ♠ ♥ ♦ ♣, like 10H")
    score.add_argument("--crib", action="store_true", help="count as a crib (five-card flush only)")
    score.add_parents(for_programs, _ascii("suits as letters, not symbols"))
    score.set_defaults(run=cmd_score)

    sim = commands.add_parser(
        "sim", help="play games between computer players and summarize them",
        description="Headless games between computer players. Seats rotate from game to "
                    "game; the same --seed gives the same games.")
    sim.add_argument("--games", type=at_least_one, default=100, metavar="N", help="how many (100)")
    sim.add_parents(_seed("for repeatable games"))
    sim.add_argument("--players", default="easy,easy,easy", metavar="A,B,C",
                     help="three levels, comma-separated (easy,easy,easy)")
    sim.add_argument("--log-dir", default=None, metavar="DIR", help="write each game's log here")
    sim.add_parents(_json("print the summary as JSON"))
    sim.add_argument("--jobs", type=at_least_one, default=None, metavar="J",
                     help="worker processes (default: one per core for large runs)")
    sim.add_argument("--short", action="store_true", help="play to 61, not 121")
    sim.add_argument("--skunks", action="store_true", help="record skunks in the game logs")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument("--max-seconds", type=float, default=None, metavar="S",
                     help="start no game after S seconds; report the games played")
    sim.add_argument("--progress-every", type=float, default=30.0, metavar="S",
                     help="say how the run stands on stderr every S seconds (30)")
    sim.add_argument("--duplicate", default=None, metavar="A,B",
                     help="head-to-head of two levels: each of --games deal sets is played "
                          "in all six seatings of A and B on the same shuffles")
    sim.set_defaults(run=cmd_sim)

    play = commands.add_parser(
        "play", parents=[_play_options(think)],
        help="play at the table against two computer players (the default)",
        description="Open the game. With any of the options below the new-game screen is "
                    "skipped; other choices are those you made last time.")
    play.set_defaults(run=cmd_play)

    games = commands.add_parser("games", help="list saved games",
                                description="Every saved game, oldest first: its number, "
                                "when, who, how it ended (the winner's score first) and its "
                                "file. The commands that take a game take its number, its "
                                "file's name, or `latest`.")
    games.set_defaults(run=cmd_games)

    resume = commands.add_parser(
        "resume", help="go on with the most recent unfinished game",
        description="Continue an unfinished game exactly where it stood.")
    resume.add_argument("log", nargs="?",
                        help=f"{GAME_HELP} (default: the latest unfinished)")
    resume.add_parents(ascii_suits, think,
                       _no_save("play on without saving (the file keeps the game as it was)"))
    resume.set_defaults(run=cmd_resume)

    replay = commands.add_parser(
        "replay", parents=[log], help="step through a saved game, every hand face up",
        description="Open a saved game in the table's screens. Keys: → ← an event, ] [ a "
                    "hand, Home End, g go to an event, space autoplay (+ - speed), v whose "
                    "view, c the coach (n p costly decisions, t threshold), q quit.")
    replay.add_argument("--coach", action="store_true",
                        help="open with the coach on: each decision's cost and ranking")
    replay.add_parents(ascii_suits)
    replay.set_defaults(run=cmd_replay)

    review = commands.add_parser(
        "review", parents=[log],
        help="where the points went: a saved game's decisions against the coach",
        description="Every decision a seat made in a saved game (discards, plays, counts "
                    "and muggins calls), the coach's ranking of each from what that seat "
                    "could see then, and the points given up against the coach's best. "
                    "By default the people at the table (every seat when all three are "
                    "computer players). --json prints one object a seat, one a line.")
    who = review.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, default=None, metavar="N",
                     help="the seat to review: 0, 1 or 2 (as in the log)")
    who.add_argument("--name", default=None, help="the player to review, by name")
    review.add_parents(for_programs, ascii_suits)
    review.set_defaults(run=cmd_review)

    practice = commands.add_parser(
        "practice", help="a discard or pegging trainer: choose, and the coach answers",
        description="Positions from real deals (or, with --from-games, your own costliest "
                    "decisions in your saved games). Choose a card by its number; the "
                    "coach answers with its ranking and why, and keeps a running score "
                    "of the points you gave up. Enter: the next position; q: quit.")
    practice.add_argument("--pegging", action="store_true",
                          help="practise the play (default: the discard)")
    practice.add_parents(_seed("for the same positions again"))
    practice.add_argument("--from-games", action="store_true",
                          help="your own costliest decisions in your last ten saved games")
    practice.add_parents(ascii_suits)
    practice.set_defaults(run=cmd_practice)

    export = commands.add_parser(
        "export", parents=[log], help="a saved game as a readable transcript, or as its log",
        description="Write a saved game to standard output: --text (the default) tells it "
                    "in words, hand by hand; --json re-emits the log.")
    fmt = export.add_mutually_exclusive_group()
    fmt.add_argument("--text", action="store_true", help="a transcript in words (default)")
    fmt.add_argument("--json", action="store_true", help="the log, as JSON Lines")
    export.add_parents(ascii_suits)
    export.set_defaults(run=cmd_export)

    stats = commands.add_parser(
        "stats", help="statistics over saved games",
        description="For each player name and level: games, wins, win share, skunks, "
                    "average hand and crib, pegging per hand, best hand, longest streak; "
                    "then, for the people, the points given up to the coach per hand over "
                    "their last 20 games (crib3 review tells one game).")
    stats.add_argument("logs", nargs="*", metavar="LOG",
                       help="saved games, as for export (default: all of yours)")
    stats.add_parents(_json("print JSON for programs (with the points given up, game by game)"),
                      _ascii("plain ASCII bars"))
    stats.set_defaults(run=cmd_stats)

    verify = commands.add_parser(
        "verify", help="check saved game logs against the rules",
        description="Re-run every event of each log through the rules. Exit 0 when all "
                    "are valid, 1 with FILE:LINE: reason for a bad log, 2 for bad usage "
                    "(such as a missing file).")
    verify.add_argument("logs", nargs="+", metavar="LOG",
                        help="game log files (.jsonl), or games as `crib3 games` names them")
    verify.set_defaults(run=cmd_verify)

    serve = commands.add_parser(
        "serve", help="host a card room that friends join with ssh",
        description="An SSH server where each connection plays crib3: a lobby of tables, "
                    "three seats each, computer players for empty seats. Players connect "
                    "with: ssh -p PORT NAME@HOST.")
    _serve_options(serve)
    serve.late_epilog = host_key_help
    serve.set_defaults(run=cmd_serve)

    invite = commands.add_parser(
        "invite", help="make a link that seats a friend from a browser",
        description="A link into the card room's web door (crib3 serve --web): good once, "
                    "for a limited time. The person who opens it plays under NAME (or "
                    "chooses a name, without NAME).")
    invite.add_argument("name", nargs="?", default=None, metavar="NAME",
                        help="the name the link seats (default: the visitor chooses)")
    invite.add_argument("--table", type=zero_or_more, default=None, metavar="N",
                        help="the table the link is for (told on the page)")
    invite.add_argument("--hours", type=hours, default=24.0, metavar="H",
                        help="how long the link is good for, at most 720 (24)")
    invite.add_argument("--list", action="store_true", help="list the open links")
    invite.add_argument("--revoke", metavar="ID", help="withdraw the open link(s) with this ID")
    invite.set_defaults(run=cmd_invite)

    tables = commands.add_parser(
        "tables", help="the card room's tables: export one's game log",
        description="The tables of the card room (crib3 serve): those of this machine's "
                    "room, or with --cluster those of a cluster's.")
    help_when_alone(tables)
    about_tables = tables.add_subparsers(dest="tables_command", metavar="COMMAND")
    export_table = about_tables.add_parser(
        "export", help="a table's game, as the JSON Lines log the other commands read",
        description="Write a table's game log (the game so far, every hidden card with it) "
                    "as the JSON Lines that replay, verify, review and stats read.")
    export_table.add_argument("table", metavar="TABLE",
                              help="the table's number in this machine's room (open or "
                                   "closed), or with --cluster its id")
    export_table.add_argument("-o", "--output", metavar="FILE", default=None,
                              help="write it here (default: standard output)")
    export_table.add_argument("--cluster", metavar="URL[,URL...]", default=None,
                              help="read it from a cluster's stream (its NATS servers, "
                                   "nats://HOST:PORT, as serve --cluster takes them; needs "
                                   "crib3[cluster]), not from this machine's room")
    export_table.add_argument("--game", type=at_least_one, default=None, metavar="K",
                              help="a match's game K (1 the first; default: its last, or "
                                   "the one under way)")
    export_table.set_defaults(run=cmd_tables_export, command="tables export")

    paths = commands.add_parser(
        "paths", help="where crib3 keeps its settings, games, keys and logs",
        description="Where crib3 keeps each kind of file on this machine (CRIB3_HOME, "
                    "when set, holds them all).")
    paths.add_parents(for_programs)
    paths.set_defaults(run=cmd_paths)
    completion = commands.add_parser(
        "completion", help="the shell's completion for crib3",
        description="Print the completion script for SHELL, e.g. "
                    "crib3 completion bash > ~/.local/share/bash-completion/completions/crib3")
    completion.add_argument("shell", choices=SHELLS, metavar="SHELL",
                            help=f"one of {', '.join(SHELLS)}")
    completion.set_defaults(run=cmd_completion, whole_parser=build_parser)
    man = commands.add_parser(
        "man", help="crib3's manual page, in roff",
        description="Print crib3(1), every command and option, in roff: "
                    "crib3 man > crib3.1; man ./crib3.1")
    man.set_defaults(run=cmd_man, whole_parser=build_parser)

    rating = serve.add_argument_group("ratings")
    rating.add_argument("--no-ratings", action="store_true",
                        help="rate no game: every table is casual (by default a table is "
                             "rated unless its owner opens it casual)")
    ratings = commands.add_parser(
        "ratings", help="the card room's ratings: the highest first",
        description="The ratings of this machine's card room (crib3 serve), the highest "
                    "first, the computer levels among them; '?' marks a rating still "
                    "provisional.")
    ratings.add_argument("--top", type=at_least_one, default=20, metavar="N",
                         help="how many (20)")
    ratings.add_argument("--people", action="store_true",
                         help="people only, without the computer levels")
    ratings.add_parents(for_programs)
    ratings.set_defaults(run=cmd_ratings)
    about_ratings = ratings.add_subparsers(dest="ratings_command", metavar="COMMAND")
    rebuild = about_ratings.add_parser(
        "rebuild", help="every rating made anew from the results log",
        description="Fold the results log (every finished rated game, in order) into "
                    "the ratings again, and say whether the numbers came out the same.")
    rebuild.add_argument("--cluster", metavar="URL[,URL...]", default=None,
                         help="a cluster's ratings instead (its NATS servers, as serve "
                              "--cluster takes them; needs crib3[cluster]): every result on "
                              "its stream checked against its table's game and folded anew, "
                              "then set beside this machine's nodes' stores; nothing is "
                              "written")
    rebuild.set_defaults(run=cmd_ratings_rebuild, command="ratings rebuild")
    calibrate = about_ratings.add_parser(
        "calibrate", help="the computer levels' ratings, from games among them",
        description="Play the expert against two standard players and the standard "
                    "player against two easy ones (crib3 sim's games, seats rotating), "
                    "and print the levels' ratings those win shares give beside the ones "
                    "in force.")
    calibrate.add_argument("--games", type=at_least_one, default=600, metavar="N",
                           help="games in each of the two runs (600)")
    calibrate.add_argument("--seed", type=int, default=None, metavar="S",
                           help="for repeatable games (4301)")
    calibrate.add_argument("--jobs", type=at_least_one, default=None, metavar="J",
                           help="worker processes (default: one per core for large runs)")
    calibrate.set_defaults(run=cmd_ratings_calibrate, command="ratings calibrate")
    _event_commands(commands, think)
    return parser


def _event_commands(commands: argparse._SubParsersAction[Parser], think: Parser) -> None:
    """`crib3 event ...`: duplicate events against the computer."""
    from crib3.cli.events import (
        cmd_event_list,
        cmd_event_new,
        cmd_event_play,
        cmd_event_results,
    )

    event = commands.add_parser(
        "event", help="duplicate events: the same boards for everyone, scored against the field",
        description="A duplicate event: a fixed run of boards (hands dealt in advance), "
                    "played against the computer; each board's play is compared, in "
                    "matchpoints, with every other play of the same cards (the computer's "
                    "three levels among them). docs/duplicate.md says more.")
    help_when_alone(event)
    about = event.add_subparsers(dest="event_command", metavar="COMMAND")
    new = about.add_parser(
        "new", help="deal a new event's boards and play the computer's field on them",
        description="Make an event in the data folder: its boards from the seed, and the "
                    "computer's plays of each at every level, the field you are compared with.")
    new.add_argument("--boards", type=at_least_one, default=6, metavar="N",
                     help="how many, in threes so that you hold every seat as often (6)")
    new.add_parents(_seed("the same boards again (default: a random one)"))
    new.add_argument("--level", default="standard", metavar="LEVEL",
                     help="the computer opponents' level on every board (standard)")
    new.add_argument("--name", default=None, metavar="NAME",
                     help="the event's name: small letters, digits, dashes (LEVEL-SEED)")
    new.add_argument("--live", action="store_true",
                     help="a live event in the card room (crib3 serve): people enter from the "
                          "lobby's e before --start, and play it three to a table")
    new.add_argument("--start", default=None, metavar="HH:MM",
                     help="with --live: when it starts, UTC (the next such time)")
    new.add_argument("--host", default=None, metavar="NAME",
                     help="with --live: who may start it early, besides an admin (your name)")
    new.add_argument("--short", choices=("computer", "call-off"), default="computer",
                     help="with --live: with fewer than three people, the computer plays the "
                          "empty seats, or the event is called off (computer)")
    new.add_argument("--rated", action="store_true",
                     help="with --live: its result moves the ratings of the room, which ranks "
                          "its people once, by their score (not rated)")
    new.add_argument("--cluster", metavar="URL[,URL...]", default=None,
                     help="with --live: put it in a cluster's card room too, where every "
                          "node's lobby lists it (its NATS servers, as serve --cluster takes "
                          "them; needs crib3[cluster])")
    new.set_defaults(run=cmd_event_new, command="event new")
    play = about.add_parser(
        "play", help="play your next board of an event at the table",
        description="Deal your next board of the event and play it against the computer; "
                    "after it, your result against the field; after the last, the event's "
                    "results. A board is dealt to you once: left part way, it is not scored.")
    play.add_argument("event", metavar="EVENT", help="the event's name (crib3 event list)")
    play.add_argument("--name", default=None, metavar="NAME",
                      help="who plays (your name from the new-game screen)")
    play.add_parents(_ascii("suits as S H D C and plain ASCII drawing"), think)
    play.set_defaults(run=cmd_event_play, command="event play")
    results = about.add_parser(
        "results", help="an event's ranking and every board's field, as a result sheet",
        description="Print the event's ranking and, board by board, every play of the "
                    "same cards with its matchpoints.")
    results.add_argument("event", metavar="EVENT", help="the event's name (crib3 event list)")
    results.add_argument("--name", default=None, metavar="NAME",
                         help="only the boards NAME has played: a player's view, without the "
                              "cards of boards still to come (default: every board)")
    results.add_argument("--cluster", metavar="URL[,URL...]", default=None,
                         help="a cluster's live event, read from its NATS servers (as serve "
                              "--cluster takes them; needs crib3[cluster]), not this "
                              "machine's data folder")
    results.add_parents(_json("print the results as JSON"), _ascii("suits as S H D C"))
    results.set_defaults(run=cmd_event_results, command="event results")
    listing = about.add_parser("list", help="the events on this machine",
                               description="The names of the events in the data folder.")
    listing.set_defaults(run=cmd_event_list, command="event list")


def play_alone_parser() -> Parser:
    """`crib3 play`'s options alone, read as the whole parser reads them:
    what `crib3` with nothing after it, the usual start, means (which
    `crib3.cli.play.play_defaults` gives without parsing; a test holds the
    three equal)."""
    parser = Parser(prog="crib3 play", parents=[_play_options(_think())])
    parser.set_defaults(run=cmd_play, command="play")
    return parser


# --- the option groups -------------------------------------------------------------


def _group() -> Parser:
    """An empty parent parser, for options that several commands share."""
    return Parser(add_help=False)


def _log() -> Parser:
    """One saved game, named on the command line."""
    group = _group()
    group.add_argument("log", metavar="LOG", help=GAME_HELP)
    return group


def _ascii(help: str = SUITS) -> Parser:
    """--ascii: no Unicode in what the command shows (`help` says what
    that changes there)."""
    group = _group()
    group.add_argument("--ascii", action="store_true", help=help)
    return group


def _json(help: str = FOR_PROGRAMS) -> Parser:
    """--json: the command's answer as JSON, for programs."""
    group = _group()
    group.add_argument("--json", action="store_true", help=help)
    return group


def _seed(help: str) -> Parser:
    """--seed: the same shuffles again."""
    group = _group()
    group.add_argument("--seed", type=int, default=None, metavar="S", help=help)
    return group


def _think() -> Parser:
    """--think: the computer players' pace at your table (`crib3 serve` has
    its own, with a default of its own)."""
    group = _group()
    group.add_argument("--think", type=seconds, default=None, metavar="SECONDS",
                       help="how long computer players take over a move (your "
                       "setting from the new-game screen; 0.6 at first)")
    return group


def _no_save(help: str) -> Parser:
    """--no-save: play without writing the game's log."""
    group = _group()
    group.add_argument("--no-save", action="store_true", help=help)
    return group


def _play_options(think: Parser) -> Parser:
    """Everything `crib3 play` takes, shared by `crib3 play` and `crib3`
    alone (`play_alone_parser`); `think` is the --think group, which
    `crib3 resume` shares."""
    group = _group()
    group.add_argument("--players", default=None, metavar="L,R",
                       help="your opponents' levels: easy, standard or expert")
    group.add_parents(_seed("for a repeatable game"))
    group.add_argument("--name", default=None, help="your name at the table")
    group.add_argument("--skunks", action="store_true", help="play with skunks")
    group.add_argument("--muggins", nargs="?", const="friendly", default=None,
                       choices=("friendly", "strict"), metavar="RULE",
                       help="count your own hands; a short count can be claimed. RULE says "
                            "what a claim too high costs: friendly (nothing: count again, "
                            "the default) or strict (the excess goes to the next player)")
    group.add_argument("--pegging-claims", action="store_true",
                       help="with muggins: claim your own pegging too, a card at a time "
                            "(implies --muggins)")
    group.add_argument("--short", action="store_true", help="play to 61")
    group.add_parents(_ascii("suits as S H D C and plain ASCII drawing"), think,
                      _no_save("do not save this game"))
    return group


def _serve_options(serve: Parser) -> None:
    """`crib3 serve`'s options: where it listens, who may come in, and the
    room's pace and limits."""
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (127.0.0.1; 0.0.0.0 for every network)")
    serve.add_argument("--port", type=int, default=2222, help="port to listen on (2222)")
    serve.add_argument("--host-key", metavar="FILE",
                       help="the server's private key (made on first start if not given)")
    door = serve.add_mutually_exclusive_group()
    door.add_argument("--authorized-keys", metavar="FILE",
                      help="public keys allowed in, OpenSSH format (default: "
                           "authorized_keys in crib3's config folder)")
    door.add_argument("--open", action="store_true",
                      help="let anyone in without a listed key: a name is held by the first "
                           "key, or reconnect code, it signs in with (a warning is printed)")
    serve.add_argument("--admins", metavar="FILE",
                       help="public keys (authorized_keys format) of the people who may close "
                            "any table and remove a session; they may also sign in")
    motd = serve.add_mutually_exclusive_group()
    motd.add_argument("--motd", metavar="TEXT",
                      help="a message of the day, shown to everyone in the lobby (an admin "
                           "may change it; \"\" clears it)")
    motd.add_argument("--motd-file", metavar="FILE",
                      help="the message of the day from a file (one line)")
    serve.add_argument("--think", type=seconds, default=0.6, metavar="SECONDS",
                       help="how long computer players take over a move (0.6)")
    serve.add_argument("--patience", type=seconds, default=120, metavar="SECONDS",
                       help="how long a player may be gone before anyone at their table "
                            "may give their seat to a computer player (120)")
    serve.add_argument("--show-pace", type=seconds, default=SHOW_PACE, metavar="SECONDS",
                       help="how long each count of the show stays on a player's screen "
                            f"before it goes on by itself; 0: until they press Enter "
                            f"({SHOW_PACE:g})")
    serve.add_argument("--idle-close", type=seconds, default=600, metavar="SECONDS",
                       help="a started table with nobody connected this long is saved and "
                            "leaves the lobby; it comes back when one of its players signs in "
                            "again (600)")
    serve.add_argument("--tables-per-key", type=zero_or_more, default=2, metavar="N",
                       help=f"how many tables one person may own at once: {ONE_PERSON} "
                            "(2; 0: no limit)")
    serve.add_argument("--names-per-key", type=zero_or_more, default=3, metavar="N",
                       help="how many names one person may be signed in under at once: "
                            f"{ONE_PERSON} (3; 0: no limit)")
    serve.add_argument("--web", metavar="[HOST:]PORT", default=None,
                       help="open a web door too: browsers sit down from an invite link "
                            "(crib3 invite); beyond loopback it needs TLS")
    serve.add_argument("--public-url", metavar="URL", default=None,
                       help="the web door's address as people reach it (behind an HTTPS "
                            "proxy: https://...)")
    serve.add_argument("--tls-cert", metavar="FILE", default=None,
                       help="the web door's TLS certificate chain (PEM)")
    serve.add_argument("--tls-key", metavar="FILE", default=None,
                       help="the web door's TLS private key (PEM)")
    serve.add_argument("--workers", type=at_least_one, default=None, metavar="N",
                       help="processes the sessions' screens run in, beside the one that "
                            "holds the room (default: one per core; 1: everything in one "
                            "process)")
    serve.add_argument("--max-startups", default="10:30:100", metavar="START:RATE:FULL",
                       help="connections not yet signed in: past START, RATE%% of new ones "
                            "are dropped, rising to all at FULL, as OpenSSH's MaxStartups "
                            "(10:30:100; FULL is also kept within the open-file limit)")
    serve.add_argument("--per-address", type=at_least_one, default=10, metavar="N",
                       help="connections not yet signed in from one address, loopback "
                            "included (10)")
    serve.add_argument("--login-grace", type=seconds, default=20, metavar="SECONDS",
                       help="how long a connection has to sign in (20)")
    serve.add_argument("--auth-tries", type=at_least_one, default=6, metavar="N",
                       help="keys or reconnect codes one connection may try, as OpenSSH's "
                            "MaxAuthTries (6); one address may fail 30 a minute")
    serve.add_argument("--lobby-idle", type=seconds, default=900, metavar="SECONDS",
                       help="a session idle this long in the lobby (not seated, not "
                            "watching) is closed (900; 0: never)")
    serve.add_argument("--metrics", metavar="[HOST:]PORT", default=None,
                       help="serve /metrics (Prometheus) and /healthz on a listener of their "
                            "own (HOST: 127.0.0.1 unless given); needs nothing else")
    serve.add_argument("--log-format", choices=("text", "json"), default="text",
                       help="the log's lines on standard error: text (date, level, event, "
                            "words) or json (one object a line, the same fields) (text)")
    serve.add_argument("--log-level", choices=("debug", "info", "warning", "error"),
                       default="info", help="the least a line must be to be written (info)")
    cluster = serve.add_argument_group(
        "a card room over several servers (needs crib3[cluster]; docs/cluster.md)")
    cluster.add_argument("--cluster", metavar="URL[,URL...]", default=None,
                         help="be one node of a room on NATS JetStream: nats://HOST:PORT or "
                              "tls://HOST:PORT; beyond loopback it needs credentials or TLS")
    cluster.add_argument("--node", metavar="NAME", default=None,
                         help="this node's name in the cluster, unique (default: the host "
                              "name and the port)")
    cluster.add_argument("--cluster-creds", metavar="FILE", default=None,
                         help="the NATS credentials file (user JWT and NKey) this node signs "
                              "in with (or user:password@ in the URL)")
    cluster.add_argument("--cluster-tls-ca", metavar="FILE", default=None,
                         help="the CA (PEM) the NATS servers' TLS certificates are checked "
                              "against (TLS to the cluster)")
    cluster.add_argument("--cluster-lease", type=seconds, default=10, metavar="SECONDS",
                         help="how long a dead node's tables wait before another node adopts "
                              "them (10; fixed by the cluster's first node)")
    settings = serve.add_argument_group("settings from a file")
    settings.add_argument("--config", metavar="FILE", default=None,
                          help="read the options above from a TOML file, keys named as the "
                               "options without their dashes (port = 2222, open = true); the "
                               "command line wins")
    settings.add_argument("--print-config", action="store_true",
                          help="print the settings in force (the file's and the command "
                               "line's) as such a file, and exit")


def help_when_alone(group: argparse.ArgumentParser) -> None:
    """A command of subcommands (`crib3 tables`, `crib3 event`) run alone
    prints its help, and no error."""

    def its_help(args: object) -> int:
        group.print_help()
        return EXIT_OK

    group.set_defaults(run=its_help)
