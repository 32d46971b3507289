"""The SSH side of the card room (`crib3 serve`), and only that: `server`
is the asyncssh server that ties a connection to a person and runs the
serve loop, `driver` runs a Textual app over an SSH channel, and `sharing`
makes Textual fit many terminals in one process; `workers` keeps the
session worker processes (`--workers`) and `worker` is one of them. The
room itself is
`crib3.room`; the screens are `crib3.tui`, and the server is handed a
factory for each session's app rather than importing one."""
