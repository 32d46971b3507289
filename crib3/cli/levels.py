"""Computer players' levels as the command line names them ("easy,expert"),
checked the same way for `crib3 play` (your two opponents) and `crib3 sim`
(three seats, or two levels head to head)."""

from __future__ import annotations

from crib3.cli.failures import UsageError


def read_levels(text: str, count: int, who: str, example: str, hidden: bool = False,
                option: str = "--players") -> list[str]:
    """Bot levels from "a,b,c", checked: `count` of them, each one we have
    (with `hidden`, also the levels kept for `crib3 sim` alone)."""
    from crib3.common.levels import BOT_LEVELS, SIM_ONLY_LEVELS

    known = (*BOT_LEVELS, *SIM_ONLY_LEVELS) if hidden else BOT_LEVELS
    levels = [p.strip().lower() for p in text.split(",") if p.strip()]
    if len(levels) != count:
        raise UsageError(f"{option} names {who}, like {example} (got {text!r})")
    for level in levels:
        if hidden and level.startswith("expert:"):  # a variant of the expert, for sim alone
            from crib3.players.expert import variant_style

            try:
                variant_style(level)
            except ValueError as error:
                raise UsageError(str(error)) from None
            continue
        if level not in known:
            raise UsageError(f"unknown player level {level!r} (choose from "
                             + ", ".join(known) + ")")
    return levels
