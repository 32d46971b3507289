"""The card room's doors and sessions (`crib3 serve`).

One session core, `session` (a `PlaySession`: sign-in, the app here, in a
session worker or at another node's table, bounds, kicks, farewells), and
the doors that adapt a connection to it: `server`, the SSH door (asyncssh:
who may come in, the accept loop, and the one adapter of asyncssh's
callbacks), `web` with `web_channel` (a browser's websocket),
`web_admission` (its connections counted) and `web_options`, and a visit
from another node of a cluster (`visiting`, both ends of the relay;
`visit_session`, the visitor's session at the host). `serving` is the
serve loop, `options` what it was asked; `driver` runs a Textual app over
a session's terminal (Textual is made fit for many terminals in one
process by `crib3.tui.textual_compat.many_terminals_in_one_process`, the
one module that touches Textual's internals, and the only part of
`crib3.tui` this package imports); `workers` keeps the session worker
processes (`--workers`) and `worker` is one of them; `gate`, `bounds` and
`keys` are the limits and the keys. The room itself is `crib3.room`; the
screens are `crib3.tui`, and the server is handed a factory for each
session's app rather than importing one. Only `server` speaks SSH."""

import warnings

# asyncssh still names DSA keys (it refuses them as OpenSSH does, but its
# modules mention the type), and cryptography 51 warns of that on import:
# lines on `crib3 serve`'s stderr that are neither ours nor a player's
# concern. Only that warning, only from asyncssh.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh(\..*)?$")
