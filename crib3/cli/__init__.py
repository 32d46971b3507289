"""The `crib3` command: `main` reads the command line, runs the command it
names, and turns the way the command ended into an exit code.

The commands live beside this, a module for each kind (`play`, `saved`,
`study`, `serve`), with their grammar in `parser` and the one line each
failure ends in in `failures`. Heavy modules (the engine's simulator,
Rich, Textual, the SSH server in `crib3.net`) are imported inside the
command that needs them, so `crib3 --help` and `crib3 score` start fast;
and `crib3` alone, the usual start, is read without argparse at all. Every
failure a user can cause ends in one line on stderr and a non-zero exit
code, never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from crib3.cli.failures import CannotRun, UsageError, report_crash
from crib3.common import startup_gc
from crib3.common.exits import EXIT_INTERRUPTED, EXIT_INVALID, EXIT_OK, EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        startup_gc.pause()  # until the first screen is drawn (crib3/common/startup_gc.py)
        from crib3.cli.play import play_defaults

        args = play_defaults()
    else:
        from crib3.cli.parser import build_parser

        parser = build_parser()
        if argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
            argv = ["play", *argv]
        args = parser.parse_args(argv)
        if getattr(args, "command", None) == "serve":
            from crib3.cli.serve_config import settled

            in_force = settled(parser, argv, args)
            if in_force is None:  # --print-config: printed, nothing to serve
                return EXIT_OK
            args = in_force
        if getattr(args, "command", None) in startup_gc.FULL_SCREEN_COMMANDS:
            startup_gc.pause()
        if not getattr(args, "run", None):
            parser.print_help()
            return EXIT_OK
    try:
        return int(args.run(args))
    except UsageError as exc:
        print(f"crib3 {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("crib3: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except CannotRun as exc:
        print(f"crib3 {args.command}: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except OSError as exc:
        print(f"crib3 {args.command}: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "),
              file=sys.stderr)
        return EXIT_INVALID
    except Exception as exc:  # a bug: one line here, the traceback in a file
        return report_crash(args.command, exc)
