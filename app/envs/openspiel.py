"""The two games for OpenSpiel (the `openspiel` extra): Python games registered with `pyspiel`.

    import pyspiel
    import app.envs.openspiel  # registers python_mount_drago and python_yutaka
    game = pyspiel.load_game("python_mount_drago", {"players": 3})
    state = game.new_initial_state()

Imperfect information, explicit chance nodes, zero-sum terminal utilities (the environments'
ranking rewards, `app.envs.table`). Player actions are the environments' action ids (116 and 126);
the observation and information-state tensors are the environments' observation of the seat's
view. The information-state string is perfect recall: the seat's redacted history, as JSON.

Chance nodes deal one card or tile at a time, each outcome with its exact probability:

- Mount Drago: each seat's rider card (a card of a dragon nobody rides yet: the first such card of
  a shuffled deck), then each seat's six cards, then the first player when the options leave it to
  chance; afterwards every card drawn (by a play, an end of turn, a refill) is a chance node over
  the cards that could be there: the draw pile, or after a reshuffle the cards it took in;
- Yutakâ: each seat's opening hand, the 20 island tiles slot by slot (the 5 left are set aside),
  the first player if "random"; afterwards every draw is a chance node over the seat's deck.

Outcome ids: Mount Drago card codes 0…49 and seats 50…54; Yutakâ card types 0…20 (see
`app.envs.yutaka`), tiles 21…45 (the index of the first equal tile in the match's tile list) and
seats 46, 47. Game parameters: `players` (Mount Drago) and the boolean match options
(`explicit_end_turn`, Mount Drago's `negative_floor`, Yutakâ's `stacked`), Yutakâ's `mode`.

The engine deals the hidden remainder (the draw pile, the decks' rest) in a fixed order and a
chance outcome moves the chosen card to where the rules draw from next; for a decision that draws,
the rules run once on a copy to learn how many cards it draws, then for real after the outcomes.
(So the engine's events, `state.events`, hold that fixed order in their deal, not the drawn one.)
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import pyspiel

from app.envs import yutaka as yu_space
from app.envs.table import SPECS, Spec, ranking_rewards
from app.games.codec import JSON, to_json
from app.games.core import AnyGame
from app.games.frozen import replace
from app.games.mount_drago.cards import CARDS as MD_CARDS
from app.games.mount_drago.cards import DECK as MD_DECK
from app.games.mount_drago.cards import HAND_SIZE as MD_HAND
from app.games.mount_drago.cards import codes, dragon_of
from app.games.mount_drago.events import CardsDrawn, DrawPileReshuffled
from app.games.playout import Advance, advancer
from app.games.registry import GAMES
from app.games.yutaka.components import DECK as YU_DECK
from app.games.yutaka.components import HAND_SIZE as YU_HAND
from app.games.yutaka.components import ISLANDS, SLOTS_PER_ISLAND
from app.games.yutaka.events import CardDrawn
from app.games.yutaka.options import parse_options as parse_yutaka_options

MD_SEAT_OUTCOME: Final = len(MD_CARDS)  # 50 + seat
YU_TILE_OUTCOME: Final = yu_space.CARD_TYPES  # 21 + tile index
YU_SEAT_OUTCOME: Final = YU_TILE_OUTCOME + 25  # 46 + seat
YU_CARD_OF_TYPE: Final = {yu_space.card_type(c): c for c in YU_DECK}
YU_DEALT: Final = 2 * YU_HAND + ISLANDS * SLOTS_PER_ISLAND  # chance nodes of a deal besides the first player


class _Dice(random.Random):
    """The rules' dice inside OpenSpiel: a reshuffle puts the cards chance chose for it on top and
    the rest in a fixed order; nothing else may roll (every other chance is a chance node)."""

    def __init__(self, on_top: list[int]) -> None:
        super().__init__(0)
        self.on_top = on_top

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        rest = sorted(x)
        for c in self.on_top:
            rest.remove(c)
        x[:] = [*self.on_top, *rest]

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        raise AssertionError("the OpenSpiel games roll every die as a chance node")


def _game_type(name: str, title: str, players: tuple[int, int], parameters: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=f"python_{name}",
        long_name=f"Python {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=parameters,
    )


MD_PARAMETERS: Final = {"players": 2, "explicit_end_turn": False, "negative_floor": True}
YU_PARAMETERS: Final = {"mode": "mysteria", "stacked": False, "explicit_end_turn": False}
MD_TYPE: Final = _game_type("mount_drago", "Mount Drago", (2, 5), MD_PARAMETERS)
YU_TYPE: Final = _game_type("yutaka", "Yutakâ", (2, 2), YU_PARAMETERS)


@dataclass(frozen=True)
class Config:
    """A loaded game's rules, spaces, players and options: shared by its states, never copied
    (OpenSpiel clones a Python state with `copy.deepcopy`)."""

    name: str
    rules: AnyGame
    spec: Spec
    players: int
    options: JSON
    advance: Advance

    def __deepcopy__(self, memo: dict[int, object]) -> Config:
        return self


class DragoGame(pyspiel.Game):
    """One of the two games with its parameters (see the module docstring)."""

    def __init__(self, name: str, params: dict[str, Any] | None) -> None:
        params = dict(params or {})
        if name == "mount_drago":
            players = int(params.get("players", 2))
            options: dict[str, object] = {
                k: bool(params.get(k, MD_PARAMETERS[k])) for k in ("explicit_end_turn", "negative_floor")
            }
            chance, length, game_type = MD_SEAT_OUTCOME + 5, 3000, MD_TYPE
        else:
            players = 2
            options = {
                "mode": str(params.get("mode", "mysteria")),
                "stacked": bool(params.get("stacked", False)),
                "explicit_end_turn": bool(params.get("explicit_end_turn", False)),
            }
            chance, length, game_type = YU_SEAT_OUTCOME + 2, 300, YU_TYPE
        rules = GAMES[name]
        self.config = Config(
            name, rules, SPECS[name], players, rules.parse_options(players, options), advancer(rules)
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=self.config.spec.actions,
            max_chance_outcomes=chance,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=length,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> DragoState:
        return DragoState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.config, perfect_recall)


class MountDragoGame(DragoGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("mount_drago", params)


class YutakaGame(DragoGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("yutaka", params)


class DragoState(pyspiel.State):
    """A match in OpenSpiel: the deal as chance nodes, then the engine with chance for draws."""

    def __init__(self, game: DragoGame) -> None:
        super().__init__(game)
        self.g = game.config
        self.dealt: list[int] = []  # the deal's chance outcomes so far
        self.state: Any = None  # the engine state once dealt
        self.events: list[object] = []  # the engine's events (the deal first)
        self.pending: tuple[int, object] | None = None  # a decision waiting for its draws' outcomes
        self.draws: list[tuple[str, int]] = []  # where each of those draws comes from, and the seat
        self.drawn: list[int] = []  # the outcomes chosen for them so far
        self.pool: tuple[int, ...] = ()  # what a reshuffle in the pending decision takes in
        self._deal_steps = _deal_steps(self.g)

    # -- whose turn

    def current_player(self) -> int:
        if self.state is None or self.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        acting = self.g.rules.to_act(self.state)
        return int(pyspiel.PlayerId.TERMINAL) if not acting else acting[0]

    def is_terminal(self) -> bool:
        return self.state is not None and self.pending is None and not self.g.rules.to_act(self.state)

    def returns(self) -> list[float]:
        outcome = None if self.state is None else self.g.rules.outcome(self.state)
        return [0.0] * self.g.players if outcome is None else list(ranking_rewards(outcome, self.g.players))

    # -- chance

    def chance_outcomes(self) -> list[tuple[int, float]]:
        counts = self._deal_steps[len(self.dealt)](self.dealt) if self.state is None else self._draw_counts()
        total = sum(counts.values())
        return [(o, n / total) for o, n in sorted(counts.items())]

    def _draw_counts(self) -> Counter[int]:
        """The cards the next pending draw may be, with their numbers."""
        where, seat = self.draws[len(self.drawn)]
        taken = Counter(o for o, (w, _) in zip(self.drawn, self.draws, strict=False) if w == where)
        if self.g.name == "mount_drago":
            return Counter(self.state.draw_pile if where == "pile" else self.pool) - taken
        return Counter(yu_space.card_type(c) for c in self.state.decks[seat]) - taken

    # -- moves

    def _legal_actions(self, player: int) -> list[int]:
        return self.g.spec.legal_ids(self.state, player)

    def _apply_action(self, action: int) -> None:
        if self.state is None:
            self.dealt.append(action)
            if len(self.dealt) == len(self._deal_steps):
                first = self.g.rules.start(self.g.players, self.g.options, _Dice([]), self._setup())
                self.state = self.g.rules.initial_state(first)
                self.events.append(first)
            return
        if self.pending is None:
            seat = self.current_player()
            self.pending = (seat, self.g.spec.action_of(self.state, seat, action))
            self.draws = self._dry_run(*self.pending)
            self.drawn = []
        else:
            self.drawn.append(action)
        if len(self.drawn) == len(self.draws):
            seat, decided = self.pending
            state, dice = self._arranged()
            self.state = self.g.advance(state, seat, decided, dice, self.events)
            self.pending = None

    def _dry_run(self, seat: int, action: object) -> list[tuple[str, int]]:
        """Where each card this decision draws comes from (`pile`, `reshuffle` or `deck`)."""
        log: list[object] = []
        self.g.advance(self.state, seat, action, _Dice([]), log)
        draws: list[tuple[str, int]] = []
        where = "pile"
        for event in log:
            if isinstance(event, DrawPileReshuffled):
                where = "reshuffle"
                self.pool = codes(event.draw_pile)
            elif isinstance(event, CardsDrawn):
                draws.extend((where, event.seat) for _ in event.cards)
            elif isinstance(event, CardDrawn):
                draws.append(("deck", event.seat))
        return draws

    def _arranged(self) -> tuple[object, random.Random]:
        """The state with the chosen cards where the rules draw them, and dice for a reshuffle."""
        chosen: dict[str, list[int]] = {"pile": [], "reshuffle": [], "deck": []}
        for outcome, (where, _) in zip(self.drawn, self.draws, strict=True):
            chosen[where].append(outcome)
        s = self.state
        if self.g.name == "mount_drago":
            rest = list(s.draw_pile)
            for c in chosen["pile"]:
                rest.remove(c)
            return replace(s, draw_pile=(*chosen["pile"], *rest)), _Dice(chosen["reshuffle"])
        if not chosen["deck"]:
            return s, _Dice([])
        seat = self.draws[0][1]
        deck = list(s.decks[seat])
        card = YU_CARD_OF_TYPE[chosen["deck"][0]]
        deck.remove(card)
        decks = tuple((card, *deck) if i == seat else d for i, d in enumerate(s.decks))
        return replace(s, decks=decks), _Dice([])

    def _setup(self) -> dict[str, object]:
        """The explicit setup of the dealt outcomes (hidden remainders in a fixed order)."""
        g, dealt = self.g, self.dealt
        if g.name == "mount_drago":
            riders, cards, first = dealt[: g.players], dealt[g.players : g.players * (1 + MD_HAND)], None
            if len(dealt) > g.players * (1 + MD_HAND):
                first = dealt[-1] - MD_SEAT_OUTCOME
            rest = Counter(MD_DECK) - Counter(riders) - Counter(cards)
            hands = [cards[s * MD_HAND : (s + 1) * MD_HAND] for s in range(g.players)]
            return {
                "riders": [to_json(MD_CARDS[c]) for c in riders],
                "hands": [[to_json(MD_CARDS[c]) for c in hand] for hand in hands],
                "draw_pile": [to_json(MD_CARDS[c]) for c in sorted(rest.elements())],
                "first_player": first,
            }
        tiles = _tiles(g)
        hands = [dealt[s * YU_HAND : (s + 1) * YU_HAND] for s in range(2)]
        decks = []
        for hand in hands:
            rest = Counter(yu_space.card_type(c) for c in YU_DECK) - Counter(hand)
            decks.append([to_json(YU_CARD_OF_TYPE[t]) for t in [*hand, *sorted(rest.elements())]])
        laid = [to_json(tiles[o - YU_TILE_OUTCOME]) for o in dealt[2 * YU_HAND : YU_DEALT]]
        aside = [to_json(t) for t in tiles]
        for tile in laid:
            aside.remove(tile)
        setup: dict[str, object] = {
            "decks": decks,
            "islands": [laid[i * SLOTS_PER_ISLAND : (i + 1) * SLOTS_PER_ISLAND] for i in range(ISLANDS)],
            "set_aside": aside,
        }
        if len(dealt) > YU_DEALT:
            setup["first_player"] = dealt[-1] - YU_SEAT_OUTCOME
        return setup

    # -- text

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}"
        return self.g.spec.describe(action)

    def __str__(self) -> str:
        if self.state is None:
            return f"dealing: {self.dealt}"
        return json.dumps(to_json(self.g.rules.view(self.state, None)), sort_keys=True)


def _tiles(g: Config) -> list[object]:
    return list(parse_yutaka_options(2, g.options).tiles())


def _deal_steps(g: Config) -> list[Callable[[list[int]], Counter[int]]]:
    """Per chance node of the deal, the outcomes it may have given those before, with numbers."""
    steps: list[Callable[[list[int]], Counter[int]]] = []
    if g.name == "mount_drago":
        deck = Counter(MD_DECK)

        def rider(dealt: list[int]) -> Counter[int]:
            taken = {dragon_of(c) for c in dealt}
            return Counter({c: n for c, n in deck.items() if dragon_of(c) not in taken})

        def card(dealt: list[int]) -> Counter[int]:
            return deck - Counter(dealt)

        steps += [rider] * g.players + [card] * (g.players * MD_HAND)
        if g.options.get("first_player") is None:
            steps.append(lambda dealt: Counter({MD_SEAT_OUTCOME + s: 1 for s in range(g.players)}))
        return steps
    types = Counter(yu_space.card_type(c) for c in YU_DECK)
    tiles = _tiles(g)
    indices = Counter(tiles.index(t) for t in tiles)

    def hand_card(seat: int) -> Callable[[list[int]], Counter[int]]:
        return lambda dealt: types - Counter(dealt[seat * YU_HAND :])

    def tile(dealt: list[int]) -> Counter[int]:
        laid = Counter(o - YU_TILE_OUTCOME for o in dealt[2 * YU_HAND :])
        return Counter({YU_TILE_OUTCOME + i: n for i, n in (indices - laid).items()})

    steps += [hand_card(0)] * YU_HAND + [hand_card(1)] * YU_HAND + [tile] * (ISLANDS * SLOTS_PER_ISLAND)
    if g.options["first_player"] == "random":
        steps.append(lambda dealt: Counter({YU_SEAT_OUTCOME: 1, YU_SEAT_OUTCOME + 1: 1}))
    return steps


class Observer:
    """The seat's observation (`tensor`, the environments' layout) and its information state
    (`string_from`: the redacted history as JSON when perfect recall is asked, else the view)."""

    def __init__(self, game: Config, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.spec.observation, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DragoState, player: int) -> None:
        if state.state is None:
            self.tensor.fill(0)
            return
        rules = self.game.rules
        to_act = state.pending is None and player in rules.to_act(state.state)
        self.tensor[:] = self.game.spec.encode(rules.view(state.state, player), player, to_act)

    def string_from(self, state: DragoState, player: int) -> str:
        rules = self.game.rules
        if state.state is None:  # during the deal: the public riders and the player's own cards
            return json.dumps({"player": player, "dealt": _seen_deal(self.game, state.dealt, player)})
        if not self.perfect_recall:
            return json.dumps(to_json(rules.view(state.state, player)), sort_keys=True)
        history = [to_json(rules.redact(e, player)) for e in state.events]
        pending = None if state.pending is None else to_json(state.pending[1])
        return json.dumps({"player": player, "history": history, "pending": pending}, sort_keys=True)


def _seen_deal(game: Config, dealt: list[int], player: int) -> list[int | None]:
    """The deal's outcomes so far as `player` sees them (None: hidden from it)."""
    if game.name == "mount_drago":
        p = game.players
        mine = range(p + player * MD_HAND, p + (player + 1) * MD_HAND)
        return [o if i < p or i in mine or i >= p * (1 + MD_HAND) else None for i, o in enumerate(dealt)]
    mine = range(player * YU_HAND, (player + 1) * YU_HAND)
    return [o if i in mine or i >= YU_DEALT else None for i, o in enumerate(dealt)]


pyspiel.register_game(MD_TYPE, MountDragoGame)
pyspiel.register_game(YU_TYPE, YutakaGame)
