"""The `/provokes` catalogue for dnd35: every action of the SRD table "Actions in Combat".

``provokes`` is the table's answer when the actor stands in a square a foe threatens; movement
provokes only by leaving threatened squares (seed: "you provoke an attack of opportunity when you
leave a threatened square - not when you enter a threatened square").
"""

from __future__ import annotations

from rules.catalogue import CatalogueEntry, Provokes

SEED = "seed 001_1e16989ecf5349e6.txt"
SRD = "D&D 3.5 SRD, Combat: Actions in Combat (Table: Actions in Combat)"

# The actions `/act` adjudicates as moves instead (they name a movement mode).
MOVE_ACTIONS: dict[str, str] = {
    "move": "normal",
    "run": "run",
    "charge": "charge",
    "withdraw": "withdraw",
    "5-foot-step": "step",
    "tumble": "tumble",
    "spring-attack": "spring-attack",
}

# Attacks aimed at one foe: they provoke only from that foe (SRD, each maneuver's "Attack of
# Opportunity" step), and the matching Improved feat removes the provocation.
TARGETED: dict[str, str | None] = {
    "unarmed-attack": "improved_unarmed_strike",
    "trip": "improved_trip",
    "disarm": "improved_disarm",
    "grapple": "improved_grapple",
    "sunder": "improved_sunder",
    "overrun": "improved_overrun",
}
SPELLS = frozenset({"cast-spell", "use-spell-like-ability"})


def _e(
    action: str,
    provokes: Provokes,
    reason: str,
    aliases: tuple[str, ...] = (),
    exceptions: tuple[str, ...] = (),
    source: str = SRD,
) -> CatalogueEntry:
    return CatalogueEntry(
        action=action,
        aliases=list(aliases),
        provokes=provokes,
        reason=reason,
        exceptions=list(exceptions),
        source=source,
    )


CATALOGUE: list[CatalogueEntry] = [
    # -- standard actions ---------------------------------------------------------------------
    _e("melee-attack", "no", "An armed melee attack does not provoke.", ("attack", "melee", "attack melee")),
    _e(
        "ranged-attack",
        "yes",
        "Firing or throwing a ranged weapon while threatened provokes from every foe that threatens you.",
        ("shoot", "fire", "fire bow", "throw", "attack ranged", "ranged"),
    ),
    _e(
        "unarmed-attack",
        "yes",
        "An unarmed attack provokes an attack of opportunity from the foe you attack.",
        ("punch", "kick", "attack unarmed", "unarmed strike"),
        ("Improved Unarmed Strike: no attack of opportunity.", "Creatures with natural weapons are armed."),
        "D&D 3.5 SRD, Combat: Unarmed Attacks",
    ),
    _e(
        "activate-magic-item",
        "no",
        "Activating a magic item other than a potion or oil does not provoke.",
        ("use wand", "use staff", "activate item", "use magic item"),
        ("Spell-completion items (scrolls) provoke: see read-scroll.",),
    ),
    _e(
        "aid-another",
        "sometimes",
        "Aiding another provokes only if the action you use to aid would provoke.",
        ("aid", "help"),
    ),
    _e(
        "bull-rush",
        "yes",
        "Moving into the defender's space provokes from every foe that threatens you, the defender included.",
        ("bullrush", "shove", "push"),
        ("Improved Bull Rush: no attack of opportunity from the defender (others still may).",),
        "D&D 3.5 SRD, Combat: Bull Rush",
    ),
    _e(
        "cast-spell",
        "yes",
        "Casting a spell (1 standard action) provokes; damage from the AoO forces a Concentration check "
        "(DC 10 + damage + spell level) or the spell is lost.",
        ("cast", "cast a spell", "spell", "casting"),
        ("Cast defensively: no attack of opportunity, but a Concentration check (DC 15 + spell level).",),
        SRD + "; " + SEED + ': "Even if the target survives the attack, the damage you deal might still '
        'disrupt the spell"',
    ),
    _e(
        "cast-defensively",
        "no",
        "Casting defensively never provokes, but needs a Concentration check (DC 15 + spell level) or the "
        "spell is lost.",
        ("cast defensive", "defensive casting", "cast on the defensive"),
        source="D&D 3.5 SRD, Magic: Casting Spells, Concentration (Casting Defensively)",
    ),
    _e(
        "concentrate-on-spell",
        "no",
        "Concentrating to maintain an active spell does not provoke.",
        ("concentrate", "maintain spell"),
    ),
    _e("dismiss-spell", "no", "Dismissing a spell does not provoke.", ("dismiss",)),
    _e(
        "draw-hidden-weapon",
        "no",
        "Drawing a hidden weapon (Sleight of Hand) does not provoke.",
        ("draw hidden",),
    ),
    _e(
        "drink-potion",
        "yes",
        "Drinking a potion or applying an oil provokes.",
        ("drink", "quaff", "potion", "apply oil", "drink a potion"),
    ),
    _e("escape-grapple", "no", "Escaping a grapple does not provoke.", ("escape grapple", "break grapple")),
    _e("feint", "no", "A feint does not provoke.", ()),
    _e(
        "light-torch",
        "yes",
        "Lighting a torch (with a tindertwig or flint and steel) provokes.",
        ("light torch", "tindertwig", "light a torch"),
    ),
    _e("lower-spell-resistance", "no", "Lowering spell resistance does not provoke.", ("lower sr",)),
    _e(
        "stabilize-dying-friend",
        "yes",
        "Making a dying friend stable (Heal) provokes.",
        ("stabilize", "stabilise", "heal check", "first aid"),
    ),
    _e(
        "overrun",
        "yes",
        "Moving into the defender's space provokes from the defender.",
        ("trample",),
        ("Improved Overrun: no attack of opportunity.",),
        "D&D 3.5 SRD, Combat: Overrun",
    ),
    _e("read-scroll", "yes", "Reading a scroll provokes.", ("read scroll", "scroll", "use scroll")),
    _e("ready", "no", "Readying an action does not provoke (the readied action might).", ("ready action",)),
    _e(
        "sunder",
        "yes",
        "Striking a held weapon or shield provokes from the foe holding it.",
        ("sunder weapon", "sunder shield", "break weapon"),
        ("Improved Sunder: no attack of opportunity.",),
        "D&D 3.5 SRD, Combat: Sunder",
    ),
    _e(
        "sunder-object",
        "sometimes",
        "Striking an object: it depends on how you do it.",
        ("attack object", "break object"),
    ),
    _e("total-defense", "no", "Total defense does not provoke.", ("defend", "full defense")),
    _e("turn-undead", "no", "Turning or rebuking undead does not provoke.", ("turn", "rebuke undead")),
    _e(
        "use-extraordinary-ability",
        "no",
        "Using an extraordinary ability does not provoke.",
        ("extraordinary ability", "ex ability"),
    ),
    _e(
        "use-skill",
        "sometimes",
        "Most skills that take an action provoke; the skill's description decides.",
        ("skill",),
    ),
    _e(
        "use-spell-like-ability",
        "yes",
        "Using a spell-like ability provokes, like casting a spell.",
        ("spell-like ability", "sla"),
        ("Used defensively: no attack of opportunity, with a Concentration check.",),
    ),
    _e(
        "use-supernatural-ability",
        "no",
        "Using a supernatural ability does not provoke.",
        ("supernatural ability", "su ability"),
    ),
    # -- move actions -------------------------------------------------------------------------
    _e(
        "move",
        "yes",
        "Moving provokes only when you leave a threatened square, not when you enter one.",
        ("walk", "move action"),
        (
            "Use /move: leaving several squares one foe threatens gives that foe one opportunity.",
            "5-foot step, withdraw, Tumble and Spring Attack avoid some or all of these attacks.",
        ),
        SEED + ': "You provoke an attack of opportunity when you leave a threatened square, not when you '
        'enter it"',
    ),
    _e("control-frightened-mount", "yes", "Controlling a frightened mount provokes.", ("control mount",)),
    _e(
        "direct-spell",
        "no",
        "Directing or redirecting an active spell does not provoke.",
        ("redirect spell",),
    ),
    _e(
        "draw-weapon",
        "no",
        "Drawing a weapon does not provoke.",
        ("draw", "draw a weapon", "unsheathe"),
        ("Quick Draw makes it a free action, but only on your own turn.",),
    ),
    _e(
        "load-light-crossbow",
        "yes",
        "Loading a hand or light crossbow provokes.",
        ("load crossbow", "reload", "load hand crossbow", "reload crossbow"),
    ),
    _e("open-door", "no", "Opening or closing a door does not provoke.", ("open door", "close door")),
    _e("mount", "no", "Mounting or dismounting a steed does not provoke.", ("dismount", "mount up")),
    _e("move-heavy-object", "yes", "Moving a heavy object provokes.", ("push object", "drag")),
    _e("pick-up-item", "yes", "Picking up an item provokes.", ("pick up", "pick up item", "grab item")),
    _e("sheathe-weapon", "yes", "Sheathing a weapon provokes.", ("sheathe", "sheath", "put away weapon")),
    _e("stand-up", "yes", "Standing up from prone provokes.", ("stand up", "get up", "stand", "rise")),
    _e("ready-shield", "no", "Readying or dropping a shield does not provoke.", ("drop shield",)),
    _e(
        "retrieve-stored-item",
        "yes",
        "Retrieving a stored item provokes.",
        ("retrieve item", "get item", "retrieve", "stored item"),
    ),
    # -- full-round actions -------------------------------------------------------------------
    _e("full-attack", "no", "A full attack with armed melee attacks does not provoke.", ("full attack",)),
    _e(
        "charge",
        "no",
        "The charge itself does not provoke; the movement can.",
        ("charge attack",),
        ("Use /move mode charge.",),
    ),
    _e(
        "deliver-coup-de-grace",
        "yes",
        "Delivering a coup de grace provokes.",
        ("coup de grace", "coup-de-grace", "cdg"),
    ),
    _e("escape-net", "yes", "Escaping from a net provokes.", ("escape a net", "escape from net")),
    _e("extinguish-flames", "no", "Extinguishing flames does not provoke.", ("stop drop and roll",)),
    _e(
        "load-heavy-crossbow",
        "yes",
        "Loading a heavy or repeating crossbow provokes.",
        ("load heavy crossbow", "load repeating crossbow"),
    ),
    _e(
        "lock-gauntlet",
        "yes",
        "Locking or unlocking a weapon in a locked gauntlet provokes.",
        ("locked gauntlet",),
    ),
    _e("prepare-splash-weapon", "yes", "Preparing to throw a splash weapon provokes.", ("prepare splash",)),
    _e(
        "run",
        "yes",
        "Running provokes as you leave threatened squares.",
        ("sprint",),
        ("Use /move mode run.",),
    ),
    _e(
        "touch-spell-on-friends",
        "yes",
        "Using a touch spell on up to six friends provokes.",
        ("touch friends",),
    ),
    _e(
        "withdraw",
        "no",
        "Withdrawing: the first square you leave does not count as threatened by foes you can see.",
        ("retreat", "disengage"),
        (
            "Foes you can't see still get attacks of opportunity.",
            "Not while blinded.",
            "Use /move mode withdraw.",
        ),
        SEED + ': "The Withdraw Action"',
    ),
    # -- free, swift, immediate, none ---------------------------------------------------------
    _e("cast-quickened-spell", "no", "A quickened spell does not provoke.", ("quickened spell",)),
    _e("cease-concentration", "no", "Ceasing concentration on a spell does not provoke.", ()),
    _e("drop-item", "no", "Dropping an item does not provoke.", ("drop", "drop weapon")),
    _e("drop-prone", "no", "Dropping to the floor does not provoke.", ("drop to the floor", "go prone")),
    _e("prepare-components", "no", "Preparing spell components does not provoke.", ()),
    _e("speak", "no", "Speaking does not provoke.", ("talk", "shout")),
    _e("delay", "no", "Delaying does not provoke.", ()),
    _e(
        "5-foot-step",
        "no",
        "A 5-foot step never provokes.",
        ("five foot step", "5 foot step", "step", "5ft step"),
        ("Only if you perform no other movement this turn; not into difficult terrain.",),
        SEED + ': "If you leave a threatened square by taking a 5-foot step, your movement doesn\'t provoke"',
    ),
    # -- action type varies -------------------------------------------------------------------
    _e(
        "disarm",
        "yes",
        "A disarm attempt provokes from the foe you try to disarm.",
        ("disarm attempt",),
        ("Improved Disarm: no attack of opportunity.",),
        "D&D 3.5 SRD, Combat: Disarm",
    ),
    _e(
        "grapple",
        "yes",
        "Starting a grapple provokes from the foe you try to grab.",
        ("grab", "start grapple"),
        ("Improved Grapple: no attack of opportunity.",),
        "D&D 3.5 SRD, Combat: Grapple",
    ),
    _e(
        "trip",
        "sometimes",
        "An unarmed trip provokes from the foe you trip; a trip made with a weapon does not.",
        ("trip attack", "trip an opponent"),
        ("Improved Trip: no attack of opportunity.",),
        "D&D 3.5 SRD, Combat: Trip",
    ),
]


def by_name() -> dict[str, CatalogueEntry]:
    """Every entry under its canonical name and each normalised alias."""
    from rules.catalogue import normalise

    table: dict[str, CatalogueEntry] = {}
    for entry in CATALOGUE:
        table[entry.action] = entry
    for entry in CATALOGUE:
        for alias in entry.aliases:
            table.setdefault(normalise(alias), entry)
    return table
