"""`/provokes` answers for DragonQuest (seed 003). There are no attacks of opportunity: the reactions
this ruleset knows are the Melee Zone stop and the defender's Repulse against a Charge and Close."""

from __future__ import annotations

from rules.catalogue import CatalogueEntry

SEED = "003_3defe2e1570abee3.txt"
_ZONE_STOP = "Entering any hostile figure's Melee Zone stops movement there (the figure may still turn)."
_NO_AOO = "DragonQuest has no attacks of opportunity"


def _src(words: str) -> str:
    return f'{SEED}: "{words}"'


CATALOGUE: list[CatalogueEntry] = [
    CatalogueEntry(
        action="move",
        aliases=["normal", "walk", "tactical movement"],
        provokes="sometimes",
        reason=f"{_NO_AOO}, but moving into a hostile figure's Melee Zone stops the move there.",
        exceptions=[
            "Up to TMR hexes; difficult hexes cost 2, a friend's hex 2 extra, a 180-degree turn 2.",
            "A figure may always move one hex in a Pulse, however difficult the terrain.",
            "Passing a figure's rear or flank hexes does not stop movement: only its three front hexes do.",
        ],
        source=_src(
            "If a figure enters the Melee Zone of any hostile figure, he must stop movement but may "
            "change facing."
        ),
    ),
    CatalogueEntry(
        action="charge",
        aliases=["pole charge"],
        provokes="sometimes",
        reason=f"{_NO_AOO}; the charge stops on entering a Melee Zone, then the charger may Melee attack.",
        exceptions=[
            "1/2 TMR (rounded down) with a non-pole weapon; full TMR with a Pole weapon.",
            "The destination hex counts. Agility 8 or less: one hex less with a Pole weapon.",
        ],
        source=_src(
            "A non-engaged figure may move up to 1/2 (rounded down) of his TMR and attempt to Melee "
            "attack with a non-pole weapo and this action is a Charge."
        ),
    ),
    CatalogueEntry(
        action="charge-close",
        aliases=["charge and close", "close"],
        provokes="yes",
        reason="The defender gets a Repulse attempt; if it succeeds the attacker stops in the hex before "
        "the defender's, if it fails the attacker enters the defender's hex.",
        exceptions=[
            "1/2 TMR (rounded down), the defender's hex counted; no facing changes.",
            "A stunned or incapacitated defender cannot Repulse.",
        ],
        source=_src(
            "If in the midst of executing a Charge and Close action, he may then be able to enter "
            "the defender's hex, depending on the results of the defender's Repulse attempt."
        ),
    ),
    CatalogueEntry(
        action="evade",
        aliases=["evading"],
        provokes="sometimes",
        reason=f"{_NO_AOO}; an evading figure moves 1/2 TMR and is much harder to hit, but a Melee Zone "
        "still stops it.",
        exceptions=["Agility 8 or less: one hex less; 22-25: one more; 26+: two more."],
        source=_src(
            "A non-engaged figure may move up to 1/2 (rounded down) of his full TMR and Evade as he moves."
        ),
    ),
    CatalogueEntry(
        action="retreat",
        aliases=["back away"],
        provokes="sometimes",
        reason=f"{_NO_AOO}; a Retreat moves up to 2 hexes directly backward; a Melee Zone still stops it.",
        exceptions=["Agility 8 or less: one hex less; 22-25: one more; 26+: two more."],
        source=_src("A non-engaged figure may move up to 2 hexes directly backward, and this is a Retreat."),
    ),
    CatalogueEntry(
        action="fire",
        aliases=["ranged attack", "shoot", "throw", "loose spell"],
        provokes="no",
        reason=f"{_NO_AOO}; the target must be in the firer's Ranged Zone, and the firer may not move or "
        "turn that Pulse.",
        exceptions=[
            "A loaded crossbow may move 2 hexes before or after firing.",
            "A flying adept (or his mount) may move 1/2 TMR and cast before, during or after moving.",
        ],
        source=_src(
            "A figure may not move or change facing in the same Pulse as a weapon is Fired or a spell "
            "is loosed, with two exceptions"
        ),
    ),
    CatalogueEntry(
        action="pass",
        aliases=["pass action", "prepare weapon", "ready weapon"],
        provokes="sometimes",
        reason=f"{_NO_AOO}; a figure may move up to two hexes with a Pass action, and a Melee Zone still "
        "stops it.",
        exceptions=[
            "Agility 8 or less: one hex less (Then the Dwarf moves one hex instead of two).",
            "Agility 22-25: one hex more (Eaglewing the Elf moves three); 26+: two more.",
        ],
        source=_src("A non-engaged figure may move up to two hexes and perform any Pass action."),
    ),
    CatalogueEntry(
        action="crawl",
        aliases=["crawling"],
        provokes="sometimes",
        reason=f"{_NO_AOO}; a crawling figure moves 1/4 TMR (rounded down), and a Melee Zone still stops it.",
        exceptions=["A figure may always move one hex in a Pulse."],
        source=_src("A figure may crawl at a rate of 1/4 of his TMR (round all fractions down)."),
    ),
    CatalogueEntry(
        action="cast-spell",
        aliases=["cast", "spell", "cast a spell"],
        provokes="no",
        reason=f"{_NO_AOO}, but an adept who is being Ranged or Melee attacked must pass a Concentration "
        "check (4 x WP on D100) or the spell is not cast.",
        exceptions=[
            "The check may be needed twice: while preparing and before loosing the spell.",
            "No spell work of any kind is allowed in Close combat.",
            "Talent Magic may be activated at any time.",
        ],
        source=_src(
            "If an Adept attempts to cast a spell while either being Ranged attacked or Melee "
            "attacked, he must perform a Concentration Check 4 X WP."
        ),
    ),
    CatalogueEntry(
        action="talent-magic",
        aliases=["talent"],
        provokes="no",
        reason="Talent Magic may be activated at any time, even in Close combat, and needs no Pass action.",
        source=_src(
            "Talent Magic may be activated at any time and does not require expenditure of a Pass action"
        ),
    ),
    CatalogueEntry(
        action="melee-attack",
        aliases=["attack", "melee", "strike"],
        provokes="no",
        reason=f"{_NO_AOO}; the target must be adjacent and in the attacker's Melee Zone.",
        exceptions=["Agility adjusts the hexes it may move with it (8 or less: -1; 22-25: +1; 26+: +2)."],
        source=_src(
            "A figure may only Melee attack a hostile figure he is adjacent to and who occupies at "
            "least one hex of his Melee Zone."
        ),
    ),
    CatalogueEntry(
        action="melee-attack-obscured",
        aliases=["obscured attack", "attack obscured hex", "attack into smoke"],
        provokes="no",
        reason=f"{_NO_AOO}; striking into an obscured hex first needs a Perception roll (4 x Perception on "
        "D100).",
        exceptions=[
            "On a failed roll the attack does not happen and the figure takes no other action that Pulse."
        ],
        source=_src(
            "he may attempt to strike if he first rolls less than or equal to four times his "
            "Perception on D100."
        ),
    ),
    CatalogueEntry(
        action="grapple",
        aliases=["wrestle"],
        provokes="no",
        reason=f"{_NO_AOO}; a figure may only Grapple a hostile figure in the same hex (get there with a "
        "Charge and Close, which the defender may Repulse).",
        source=_src("A figure may only Grapple a hostile figure in the same hex."),
    ),
    CatalogueEntry(
        action="withdraw",
        aliases=["withdrawal"],
        provokes="no",
        reason=f"{_NO_AOO}; a withdrawal is an engaged figure's action, not a movement mode here.",
        exceptions=["Agility 22-25: one extra hex; 26+: two."],
        source=_src(
            "allowed one extra hex of movement when executing any of the following actions: Melee "
            "attack. Evade. Withdraw, Pass, and Retreat."
        ),
    ),
    CatalogueEntry(
        action="jump",
        aliases=["leap"],
        provokes="no",
        reason=f"{_NO_AOO}; the GM may allow a jump at one hex of TMR per 5 feet, with an Agility roll to "
        "land cleanly.",
        source=_src("the GM may allow this with a penalty of one hex for every 5 feet jumped"),
    ),
    CatalogueEntry(
        action="recover",
        aliases=["recover from stun", "shake off stun"],
        provokes="no",
        reason="A stunned figure may attempt nothing except to recover; an incapacitated one can do nothing.",
        source=_src(
            "A figure who becomes stunned may attempt no other action except try to recover from "
            "being Stunned."
        ),
    ),
]
