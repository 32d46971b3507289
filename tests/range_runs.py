"""The test modules `.ci/run`'s version-range runs leave out (conftest.py
marks them; test_layers.py checks the reason still holds). A module of
its own, as `conftest` names a different module once tests/cluster/'s
conftest.py has been imported under that name."""

# What the range runs leave out besides, as nothing Textual or Rich does can
# change what they check (and `.ci/run` has 20 minutes for three runs):
# - the modules of the engine, the rules, scoring and the computer players,
#   which never load Textual (test_layers.py checks that they do not) and no
#   other dependency but hypothesis, which the rest of the suite runs at its
#   floor;
# - in the newest run only, the cluster's, on real NATS servers: what they
#   add to a session is NATS and relaying, and only Textual and Rich move
#   there. The lowest run installs nats-py at its floor too, so it runs them.
TEXTUAL_FREE = ("test_cards", "test_feed", "test_log", "test_properties", "test_scoring",
                "test_rules_play", "test_rules_r1_r4", "test_rules_show_win",
                "test_players_endgame", "test_players_keeps", "test_players_posterior",
                "test_players_reading", "test_players_rivals", "test_players_search",
                "test_duplicate_boards", "test_duplicate_scoring")

# The range runs' time (`.ci/run` has 20 minutes for the suite and both
# runs) goes where a dependency's version can change the outcome:
# - of the tests marked `slow` (whole games, end to end), the runs keep
#   those of these modules: Textual's internals through every fallback,
#   the SSH door's life and bounds (asyncssh: the floors run found 2.16
#   and 2.17 losing a session's last words), the web door and the browser
#   (aiohttp, playwright) and the cluster's real nodes (nats-py). The
#   other long ones (whole games by Pilot, in tmux, by the command line)
#   take the paths the shorter tests take through Textual and Rich;
SLOW_KEPT = ("test_textual_seam", "test_ssh_life", "test_ssh", "test_ssh_workers",
             "test_ssh_bounds", "test_ssh_hostile", "test_ssh_e2e", "test_web_door",
             "test_web_door_hostile", "test_web_browser", "test_web_widths",
             "test_cluster_serve")
# - of the cluster's (the lowest run only: nats-py at its floor), these
#   modules, which use every nats-py call crib3 makes (JetStream streams
#   and their leaders, the KV buckets, their watches, consumers and
#   purges, reconnection); the rest are crib3's own logic over them.
CLUSTER_KEPT = ("test_cluster", "test_cluster_serve", "test_cluster_bans",
                "test_cluster_retry", "test_cluster_results", "test_tables_export")
