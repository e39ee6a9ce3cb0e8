"""Positions fixed with ``setup`` and short card names for the scenario tests."""

from __future__ import annotations

from typing import Any

from referee.games import make
from referee.games.oddball_aeronauts.phases import DISCARD
from referee.games.oddball_aeronauts.state import OddballState

GAME = "oddball-aeronauts"

# Pendragon
RC = "pendragon/royal-cannoneer"        # S1/G5/B3 +0/+2/+1  +3 Guns vs Sailing/Boarding
GDC = "pendragon/gun-deck-crew"         # S2/G4/B3 +1/+1/+1  +2 Guns if Opp. plays 1 card
PM = "pendragon/powder-monkey"          # S2/G4/B3 +1/+1/+1  Defence +3 Guns vs Sailing/Boarding
MAR = "pendragon/pendragon-marine"      # S1/G3/B5 +0/+1/+2  +3 if Boarding or Sailing
SGT = "pendragon/boarding-sergeant"     # S2/G3/B5 +1/+1/+1  Lead: +3 if Boarding or Guns
DH = "pendragon/deck-hand"              # S4/G3/B2 +1/+1/+1  +2 Sailing if Opp. plays 3 cards
RIGGER = "pendragon/rigger"             # S4/G2/B3 +2/+0/+1  Shadow; Defence Sailing
CL = "pendragon/clockwork-loader"       # S1/G2/B2 +2/+4/+2  Rig cards 1, 2 and 3
GH = "pendragon/griffin-hound"          # S1/G2/B2 +2/+3/+3  Lose: Protect 1 card
MORWEN = "pendragon/enchantress-morwen"  # S2/G2/B1 +3/+3/+2 Shadow; MAGIC Win: Recover 1
SA = "pendragon/signal-automaton"       # S2/G1/B2 +3/+2/+3  Protect 1 card
SB = "pendragon/shieldbearer-bot"       # S1/G2/B2 +2/+3/+3  Win: Recover 1 card
GV = "pendragon/gwendolyn-vane"         # S3/G5/B3 +1/+2/+1  Shadow; MAGIC Win: Opp. Discards 1
GG = "pendragon/golden-griffin"         # 2/2/2 +2/+2/+2     Next Round: +2
HS = "pendragon/hector-shackleton"      # S2/G4/B3 +1/+2/+2  Guns supported by Guns and Boarding
ET = "pendragon/elspeth-thorn"          # S2/G3/B4 +1/+2/+2  Shadow; Boarding supported by B and G
PA = "pendragon/percival-ashby"         # S3/G3/B3 +2/+2/+1  MAGIC Guns supported by all
IB = "pendragon/ida-blythe"             # S2/G4/B3 +1/+3/+1  Lead: Boarding supported by all
OP = "pendragon/owain-pryce"            # S3/G4/B2 +2/+2/+1  Sailing supported by S and G
GALAHAD = "pendragon/galahad-stormwing"  # S3/G5/B3 +1/+2/+1 MAGIC Win (Guns): Capture (non-core)
LION = "pendragon/iron-lion"            # 2/2/2 +2           Next Round: Guns supported by all
MASTER = "pendragon/master-gunner"      # Crew Cannoneer L2 (non-core)
QUILL = "pendragon/bartholomew-quill"   # Officer Chivvier L1 (non-core)
# Pirates
TR = "pirates/topsail-rigger"           # S5/G1/B3 +2/+0/+1  +3 Sailing vs Guns/Boarding
WD = "pirates/wind-dancer"              # S4/G2/B3 +1/+1/+1  +2 Sailing if Opp. plays 1 card
LO = "pirates/lookout"                  # S4/G2/B3 +1/+1/+1  Defence Sailing
BF = "pirates/bilge-fiend"              # S3/G1/B5 +1/+0/+2  +3 if Boarding or Guns
BRUISER = "pirates/boarding-bruiser"    # Fiends L2
SG = "pirates/swivel-gunner"            # S3/G4/B2 +1/+1/+1  +2 Guns if Opp. plays 3 cards
RAT = "pirates/powder-rat"              # S2/G4/B3 +0/+2/+1  Shadow
MOLLY = "pirates/molly-blackwind"       # S5/G3/B3 +2/+1/+1  Shadow; MAGIC Win: Capture Opp. Top Card
KRAKEN = "pirates/laughing-kraken"      # 2/2/2 +2           Next Round: Opp. may Play only Top Card
NF = "pirates/navigator-finch"          # S3/G3/B3 +2/+1/+2  MAGIC Sailing supported by all
SUE = "pirates/salty-sue"               # S4/G2/B3 +2/+1/+2  Sailing supported by S and B
SHARK = "pirates/sky-shark"             # S2/G1/B2 +3/+2/+3  Lose: Protect 1 card
VEX = "pirates/storm-caller-vex"        # S2/G1/B2 +3/+3/+3  Shadow; Rig cards 2 and 4 (non-core)
HORDE = "pirates/horde-of-fiends"       # Crew Fiends L4 (non-core)
# Mercenaries
TUCK = "mercenary/brother-tuck"         # S3/G3/B4 +2/+1/+2  You may Play 0 cards
JACK = "mercenary/iron-jack"            # S3/G5/B4 +1/+2/+2  Win (Guns): Opp. Discards 1 extra card
ZEPHYR = "mercenary/madame-zephyr"      # S5/G3/B4 +2/+1/+2  Lead: Opp. may Play only their Top Card
HEXER = "mercenary/the-hexer"           # 2/2/2 +2/+2/+2     Shadow; MAGIC Opp. -2
# Events
FLASH = "event/flash-storm"             # Lowest Sailing Discards 2
KRAKEN_EV = "event/sky-kraken"          # Lowest Guns Discards 1
WINDS = "event/trade-winds"             # Highest Sailing Recovers 2
FAVOUR = "event/storm-gods-favour"      # Highest Boarding +3 this round
ROCKS = "event/clashing-rocks"          # Lowest Boarding may Play only Top Card
BARGAIN = "event/demons-bargain"        # Highest Guns +2 next round

FILLER0 = [GDC, GDC, DH, DH, DH]
FILLER1 = [SG, SG, SG, BF, BF]


def game(up0: list[str], up1: list[str], down0: list[str] | None = None, down1: list[str] | None = None,
         lead: int = 0, box: list[str] | None = None, settled: bool = True, **options: Any) -> OddballState:
    """A game whose decks are exactly these (Top Card first; next to Recover first). Cards a
    Step 1 Event makes go down together keep their deck order unless ``settled`` is false."""
    setup: dict[str, Any] = {"seats": [{"up": up0, "down": down0 or []}, {"up": up1, "down": down1 or []}],
                             "lead": lead}
    if box is not None:
        setup["box"] = box
    state = make(GAME, 2, seed=0, options={"setup": setup, **options})
    assert isinstance(state, OddballState)
    return settle(state) if settled else state


def settle(state: OddballState) -> OddballState:
    """Every pending Discard order is answered with deck order (the first legal action)."""
    while state.phase == DISCARD:
        (seat,) = state.to_move()
        state.apply({seat: state.legal_actions(seat)[0]})
    return state


def new(seed: int = 0, **options: Any) -> OddballState:
    """A dealt game (no setup)."""
    state = make(GAME, 2, seed=seed, options=options)
    assert isinstance(state, OddballState)
    return state


def up(state: OddballState, seat: int) -> list[str]:
    return [state.table.ids[u] for u in state.up[seat]]


def down(state: OddballState, seat: int) -> list[str]:
    return [state.table.ids[u] for u in state.down[seat]]


def legal(state: OddballState, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def announce(state: OddballState, seat0: str, seat1: str, prepare0: str | None = "ready",
             prepare1: str | None = "ready") -> None:
    """Step 2: each seat's skill, the Lead first; then, unless ``prepare0`` is None, the
    start of Step 3: both seats' Rig / limit / ``ready`` at once."""
    says = (seat0, seat1)
    lead = state.lead
    state.apply({lead: says[lead]})
    state.apply({1 - lead: says[1 - lead]})
    if prepare0 is not None and prepare1 is not None:
        state.apply({0: prepare0, 1: prepare1})


def play(state: OddballState, seat0: str, seat1: str, settled: bool = True) -> None:
    """Step 3: both seats at once (then Discard orders in deck order, unless not ``settled``)."""
    state.apply({0: seat0, 1: seat1})
    if settled:
        settle(state)


def choose(state: OddballState, seat: int, action: str) -> None:
    """One seat's action (a Step 5 Capture or Protect, a sequential count), then Discard orders
    in deck order."""
    state.apply({seat: action})
    settle(state)


def round_(state: OddballState, skill0: str, skill1: str, seat0: str, seat1: str) -> dict[str, Any]:
    """A whole round without Step 5 choices, given per seat (announced Lead first);
    returns its summary (``last_round``)."""
    number = state.rnd
    announce(state, skill0, skill1)
    play(state, seat0, seat1)
    assert state.rnd > number or state.is_over(), "the round is waiting for a Step 5 choice"
    return last(state)


def last(state: OddballState) -> dict[str, Any]:
    """The summary of the last finished round, as observations show it (``last_round``)."""
    data = state.observation(0)["last_round"]
    assert data is not None
    return data
