"""The Yutakâ page's explanations (docs/games/yutaka.md; the rules are docs/rules.md §2)."""

from __future__ import annotations

from app.gamedocs.prose.base import Prose

YUTAKA = Prose(
    intro="Yutakâ is played by 2 seats. Five islands hold four face-down treasure tiles each; the "
    "players reveal tiles and play cards onto their side of the islands (dynamite onto the "
    "opponent's) to win the tiles of each type at the end. A seat's hand and the order of both decks "
    "are secret; face-down tiles show their type only in the modes that say so, never their value; "
    "the five set-aside tiles stay hidden until the end.",
    vocabulary={
        "Card": "Both seats have the same 24-card deck, each shuffled on its own.",
        "CardKind": "`equipment` goes on your side like a treasure card, and makes you reveal a tile.",
        "Tile": "Only known tiles are written so: face up, at the end, or in a development setup.",
        "TileType": "Equipment tiles are won differently (docs/rules.md §2.5).",
        "TileView": "Draw a face-down tile by its `type` when that is not null (modes `tactika` and "
        "`mixed`).",
        "IslandView": "`cards[seat]` is that seat's column on the island.",
        "Phase": "`draw` is in the list for completeness only.",
        "IslandScore": "`game_ended` lists one per island; sum `points` over the islands for the totals.",
        "Award": "Show it as one line of the final scoring: who won which tiles of the island, and why.",
        "Basis": "`column_sum` applies to equipment held on both sides of an island (docs/rules.md §2.5).",
        "Result": "`discarded`: equal sums, nobody gets the tiles; `unclaimed`: nobody played that kind "
        "there.",
        "Mode": "The option `mode`; `known_types` in the options says which types show.",
        "TieBreak": "The option `tie_break`, and the values of `decided_by` besides `total`.",
        "TileValues": "The option `tile_values`; the view and `game_started` list every type.",
    },
    view="Draw the five islands from `islands` (tiles by slot, each seat's column of cards), your "
    "`hand`, the sizes of hands and decks; let the player pick from `legal_actions` (reveals name an "
    "island and a slot, plays a card and an island). The members below are always present (null "
    "where the text says so).",
    members={
        "options": "The match's options with every default filled in (see "
        "[Options and setup](#options-and-setup)); "
        "`known_types` lists the types whose face-down tiles show their type.",
        "first_player": "The seat of player 1, who revealed first in the opening and played first.",
        "phase": "`opening` (the four opening reveals), `play` (play a card), `confirm` (option "
        "`explicit_end_turn`: send `end_turn`), `reveal` (a tile must be revealed, by the player after "
        "equipment or by the opponent after dynamite), `over`.",
        "turn": "The seat on turn; null during the opening and after the end (`to_act` says who "
        "decides a reveal).",
        "opening_reveals_left": "Opening reveals still due: 4 at the start, counting down to 0.",
        "cards_played": "Cards played so far by both seats.",
        "hand": "Your cards; null for a spectator. The opponent's hand is never shown, only its size.",
        "hand_sizes": "How many cards each seat holds.",
        "deck_sizes": "Cards left in each seat's deck (its order is secret).",
        "islands": "The five islands, left to right: each slot as you may see it and each seat's "
        "column of cards (dynamite lies in the column of the seat it was played against).",
        "face_down": "Face-down tiles left on the islands; the game ends when the last one is revealed.",
        "set_aside": "The five set-aside tiles: null until the game ends, then public.",
        "set_aside_count": "How many tiles are set aside (5).",
    },
    actions={
        "reveal": "After the opponent's dynamite the reveal is yours although the turn is not: watch "
        "`to_act`, not `turn`.",
        "play": "After equipment your own `reveal` follows (phase `reveal`); after dynamite the "
        "opponent's; otherwise your draw ends the turn (or, with `explicit_end_turn`, your `end_turn`).",
        "end_turn": "Phase `confirm`. The reply holds `turn_confirmed`, then your draw or, after "
        "dynamite, nothing more: the opponent reveals next.",
    },
    events={
        "game_started": "The deal, always event 1. A seat receives its own opening `hand` and the "
        "sizes of hands and decks; the islands as the mode shows face-down tiles; a spectator sees no "
        "hand. After the end the reveal publishes it as dealt: both decks in order, every island tile "
        "and the set-aside tiles, which lets anyone check the commitment and replay the match.",
        "tile_revealed": "A tile turned face up: show `tile` in (`island`, `slot`). `seat` is who "
        "revealed it.",
        "card_played": "A card was placed: take it out of `seat`'s hand and add it to the column of "
        "`side` on `island` (the opponent's side for dynamite).",
        "turn_confirmed": "Option `explicit_end_turn`: the seat sent `end_turn`; its draw or the "
        "opponent's reveal follows.",
        "card_drawn": "The seat drew the top card of its deck, which closes its turn. The seat itself "
        "(and the reveal) gets the `card`; the opponent and spectators only that it drew.",
        "game_ended": "The last face-down island tile was revealed: the awards per island and tile "
        "type, the `totals`, the `winners`, what decided (`decided_by`) and the set-aside tiles, now "
        "public. `match_ended` follows in the same commit.",
    },
    glossary={
        "awards": "One award per tile type present on the island.",
        "basis": "What was compared (see `Basis`).",
        "card": "The card (see `Card`).",
        "decided_by": "What decided: `total`, a tie-break criterion, or `shared` (a shared win).",
        "decks": "Both decks as dealt, top first (each deck's first six cards are the opening hand).",
        "face_up": "Whether the tile is face up.",
        "first_player": "The seat of player 1.",
        "GameStartedRedacted.hand": "The viewer's opening hand; null for a spectator.",
        "GameEnded.islands": "The scoring of each island, from island 0.",
        "GameStarted.islands": "Each island's four tiles by slot, as dealt.",
        "Card.kind": "The card's kind (see `CardKind`).",
        "mode": "Which face-down tiles show their type (see `Mode`).",
        "IslandView.name": "The island's name.",
        "Award.result": "What became of the tiles (see `Result`).",
        "set_aside": "The five set-aside tiles.",
        "set_aside_count": "How many tiles are set aside.",
        "tile": "The tile, public from now on.",
        "tile_values": "Tile values per type (see `TileValues`).",
        "tiles": "The island's four slots, from slot 0 (the top).",
        "TileView.value": "The tile's value; null while face down.",
        "TileView.type": "The tile's type; null while face down, unless the mode shows it.",
        "type": "The tile's type (see `TileType`).",
        "options": "The match's options, every default filled in.",
    },
)
