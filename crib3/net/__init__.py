"""The SSH side of the card room (`crib3 serve`), and only that: `server`
is the asyncssh server that ties a connection to a person and runs the
serve loop, `driver` runs a Textual app over an SSH channel (Textual is
made fit for many terminals in one process by
`crib3.tui.textual_compat.many_terminals_in_one_process`, the one module
that touches Textual's internals, and the only part of `crib3.tui` this
package imports); `workers` keeps the session worker processes
(`--workers`) and `worker` is one of them. The room itself is
`crib3.room`; the screens are `crib3.tui`, and the server is handed a
factory for each session's app rather than importing one."""

import warnings

# asyncssh still names DSA keys (it refuses them as OpenSSH does, but its
# modules mention the type), and cryptography 51 warns of that on import:
# lines on `crib3 serve`'s stderr that are neither ours nor a player's
# concern. Only that warning, only from asyncssh.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh(\..*)?$")
