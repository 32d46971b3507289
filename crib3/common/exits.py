"""The `crib3` command's exit codes, apart from the command itself so that
the argument grammar (`crib3.common.arguments`, which the developers' tools
share) can use them without loading the whole command line."""

EXIT_OK = 0  # done
EXIT_INVALID = 1  # understood, but what it was given (a log, a folder) is wrong or cannot be used
EXIT_USAGE = 2  # the command line itself is wrong
EXIT_INTERRUPTED = 130  # stopped by Ctrl-C (SIGINT), as a shell reports it: 128 + 2
