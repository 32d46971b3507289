"""The SSH card room (`crib3 serve`): `room` holds the tables and their games
(no SSH, no screens), `driver` runs a Textual app over an SSH channel, and
`server` is the asyncssh server that ties a connection to a person."""
