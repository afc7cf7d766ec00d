"""The Mount Drago page's explanations (docs/games/mount_drago.md; the rules are docs/rules.md §1)."""

from __future__ import annotations

from app.gamedocs.prose.base import Prose

MOUNT_DRAGO = Prose(
    intro="Mount Drago is played by 2 to 5 seats. Ten dragons climb one track; each seat rides the "
    "dragon on top of its rider pile and scores when a blue or green space (or the summit) is landed "
    "on, by the value printed under its own dragon. A seat's hand is secret; everything on the board is "
    "public; nobody sees the order of the draw pile.",
    vocabulary={
        "Card": "A hand is a multiset: to discard two equal cards at once, name the card twice.",
        "Dragon": "Hands, `positions` and legal actions follow this order.",
        "Space": "The view and `game_started` carry the whole track; a dragon's position is an index into "
        "it.",
        "SpaceKind": "Colour the track by it; the last four spaces are always the summit.",
        "RiderPile": "Only the top card and the size are shown; every card was played face up, so a client "
        "that follows the events (`rider_settled`) can tell the rest.",
    },
    view="Draw the board from `track` and `positions`, the riders from `riders` and `rider_piles`, "
    "the scores from `scores`; show your own `hand`; let the player pick from `legal_actions`. The "
    "members below are always present (null where the text says so).",
    members={
        "players": "How many seats the match has (2–5); every per-seat array has this length.",
        "phase": "Where the turn is: `play` (play a card), `choose_rider` (keep or switch after moving "
        "an unridden dragon in last place), `discard` (optional summit discards, then `end_turn`), "
        "`over`.",
        "current_player": "The seat whose turn it is: highlight it (`to_act` says who decides now).",
        "hand": "Your cards, sorted; null for a spectator. The other seats' hands are never shown, only "
        "their `hand_sizes`.",
        "hand_sizes": "How many cards each seat holds.",
        "positions": "Each dragon's space as an index into `track` (0 is the start). Several dragons "
        "may share a space.",
        "summit_dragons": "The dragons standing on a summit space. The game ends when a third one "
        "arrives; cards of these dragons may be discarded in the `discard` phase.",
        "riders": "The dragon each seat rides now (the dragon of its rider pile's top card).",
        "rider_piles": "Each seat's rider pile: its face-up top card and how many cards it holds.",
        "scores": "Each seat's total so far.",
        "draw_pile_size": "Cards left in the draw pile; its order is secret, even after a reshuffle.",
        "discard_pile": "The summit discards so far, oldest first (face up).",
        "pending_card": "In phase `choose_rider`: the card just played, whose place (under your pile or "
        "on top) you are choosing. Null otherwise.",
        "turn_scored": "Whether this turn has started a scoring that stops the draw (see the option "
        "`zero_scoring_counts`): a client can announce that no card will be drawn.",
        "options": "The match's options with every default filled in (see "
        "[Options and setup](#options-and-setup)).",
        "track": "The match's track from the start (index 0) to the last summit space.",
    },
    actions={
        "play": "Any dragon may be moved, ridden or not. The reply's events tell what followed: "
        "`card_played`, `rider_settled`, maybe `scored`, then the end of the turn or the next phase.",
        "choose_rider": "The view's `pending_card` is the card in question; `legal_actions` offers "
        "both choices.",
        "discard": "Optional: `end_turn` is legal in this phase whether or not you discard.",
        "end_turn": "The reply holds your draw (`cards_drawn`, with your cards) and `turn_ended`.",
    },
    events={
        "game_started": "The deal, always event 1. Each seat receives its own hand and only the sizes "
        "of the others (`hands[i]` is null for them) and the size of the draw pile; a spectator sees no "
        "hand. After the end the reveal publishes it as dealt: every hand and the draw pile in order, "
        "which lets anyone check the commitment and replay the match.",
        "card_played": "A dragon moved: animate `card.dragon` from `from_space` to `to_space` and take "
        "the card out of the seat's hand.",
        "rider_settled": "Where the played card went (`result`) and which dragon the seat rides now "
        "(`rider`): update that seat's rider pile and rider.",
        "scored": "A scoring: add `changes[seat]` to each total (it is what was really added, after the "
        "`negative_floor` rule). All zeros is possible.",
        "cards_discarded": "Summit discards: take `cards` out of the seat's hand and put them on the "
        "discard pile.",
        "cards_drawn": "The seat drew from the draw pile. The seat itself (and the reveal) gets the "
        "`cards`; everybody else only their `count`.",
        "draw_pile_reshuffled": "The draw pile ran out and was rebuilt from the rider piles (all but "
        "their top cards) and the summit discards. Viewers learn only its new `size`; the reveal shows "
        "the new order.",
        "turn_ended": "The seat's turn is over; `next_seat` is on turn.",
        "turn_passed": "A seat began its turn with no card and could draw none, so it passed to "
        "`next_seat` (docs/rules.md §1.4.7: no real match gets there; the example is constructed).",
        "game_ended": "The game is over: final `scores`, the `winners` (several on a tie) and why "
        "(`reason`). `match_ended` follows in the same commit.",
    },
    glossary={
        "card": "The card (see `Card`).",
        "cards": "The cards (see `Card`); equal cards are listed as often as they are meant.",
        "choice": "`keep` your dragon or `switch` to the moved one.",
        "count": "How many cards were drawn.",
        "draw_pile": "The draw pile in order, top first (the stored event, published by the reveal).",
        "draw_pile_size": "Cards in the draw pile.",
        "first_player": "The seat that plays first.",
        "GameStarted.hands": "Every seat's hand as dealt.",
        "Scored.kind": "The kind of space landed on: `blue`, `green` or `summit`.",
        "Space.kind": "The space's kind (see `SpaceKind`).",
        "next_seat": "The seat on turn next.",
        "options": "The match's options, every default filled in.",
        "players": "How many seats the match has.",
        "result": "Where the card went: `under` the pile, `on_top` of it, or `switched` (on top, new "
        "dragon).",
        "GameStarted.riders": "Each seat's face-up rider card; its dragon is the one the seat rides.",
        "size": "Cards in the new draw pile.",
        "summit_discards": "Whether the summit discard pile joined the new draw pile.",
        "top": "The pile's face-up top card: its dragon is the one the seat rides.",
        "track": "The match's track, from the start (index 0) to the last summit space.",
    },
    constructed={"turn_passed": {"type": "turn_passed", "seat": 1, "next_seat": 2}},
)
