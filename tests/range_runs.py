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
