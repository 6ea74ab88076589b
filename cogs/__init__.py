"""The Discord surface: slash-command cogs and persistent buttons. Thin: they translate, never decide.

`EXTENSIONS` lists the extension modules the bot loads at start-up, in order.
"""

EXTENSIONS: tuple[str, ...] = ("cogs.encounter", "cogs.play", "cogs.combatants", "cogs.rulings")
