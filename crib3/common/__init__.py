"""Small helpers every layer may use: where files go, what a name may be, the
bots' levels, what the terminal can show, crash reports, the command line's
grammar and exit codes, the collector paused at start-up."""
