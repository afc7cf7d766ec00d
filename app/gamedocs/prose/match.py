"""What every game's pages say about the match around the game: the envelope of a view, the draft
actions and the match-level events (their `type`s are the same in every game)."""

from __future__ import annotations

from app.gamedocs.prose.base import Prose

MATCH = Prose(
    intro="",
    vocabulary={
        "SeatClock": "One seat's deadline under a turn clock (the `clock` member of a view).",
        "DraftInfo": "The viewer's own open turn draft (the `draft` member of a view).",
        "MatchOutcome": "How a match ended (the `outcome` member of a view).",
        "RatingChange": "One seat's rating before and after a rated match (in `ratings_changed`).",
        "SeatRating": "A player's rating in the game at one moment (docs/ratings.md).",
    },
    view="",
    members={
        "match_id": "The match's id, as in every URL of the match.",
        "game": "The game's name: tells a client which game's members to expect beside these.",
        "seq": "The seq of the last event this view includes. Send it back as `expected_seq` with an "
        "action chosen from this view, so that the action is refused (409 `version_conflict`) rather "
        "than applied to a position you have not seen.",
        "status": "`waiting` until every seat is filled, `active` while the game runs, then `finished` "
        "or `aborted`.",
        "seat": "Your seat, or null when you read as a spectator (no credential).",
        "to_act": "The seats whose decision it is now. Usually one; empty unless `status` is `active`.",
        "legal_actions": "Everything you may send now, as complete `action` objects: pick one and post "
        "it unchanged. Empty unless your seat is in `to_act`.",
        "outcome": "Null while the match runs; afterwards why it ended (`reason`), the `winners`, the "
        "final `scores` (null if the game was not played out) and the game's `details`.",
        "clock": "Under a turn clock, each seat to act and its `deadline` (UTC); with a bank clock also "
        "its `bank_s`. Empty without a clock.",
        "draft": "In a match with turn drafts, your own open draft: how many `steps` it has and whether "
        "`finish_turn` is possible now (`can_finish`). Null otherwise.",
    },
    actions={
        "undo": "Matches with turn drafts only: take back the last step of your open draft. Offered in "
        "`legal_actions` while the draft has steps.",
        "finish_turn": "Matches with turn drafts only: end your turn where the game would end it by "
        "itself (instead of the game's own end-of-turn action); the draft becomes public and the game "
        "goes on, with the draw for instance.",
    },
    events={
        "seat_joined": "A seat was filled: by a person (`bot` false; `player_id` when a player key holds "
        "the seat) or by a server bot of `level`. A lobby updates its seat list with it.",
        "match_started": "The last seat was filled: the match is `active` and the first decision is due. "
        "A client that waited for players starts its game screen here.",
        "seat_resigned": "The seat gave up (`POST …/resign`). With two players the other wins at once "
        "(`match_ended` follows); with more, a server bot plays the seat on and it ranks last.",
        "turn_timed_out": "The seat's clock ran out. `policy` says what follows: `bot` (a server bot "
        "makes this one decision for it) or `forfeit` (the seat loses).",
        "seat_taken_over": "A server bot of `level` plays the seat from now on: after repeated timeouts, "
        "a resignation or a forfeit in a game of more than two, or because the host asked (`reason`).",
        "seat_token_reissued": "The host gave the seat a new token; the old one stopped working at once "
        "(a stream opened with it is closed with 4401). The event never holds a token.",
        "match_aborted": "The match was cancelled before it started: by the host (`host`) or because "
        "nobody filled it in time (`expired`). `match_ended` with reason `aborted` follows.",
        "match_ended": "The match is over: `reason` is `finished` (played out), `resigned`, `timeout` or "
        "`aborted`; `winners` and the final `scores` (null unless the game was played out). The game's "
        "own final event, if any, comes just before it.",
        "ratings_changed": "Only in a rated match, in a commit of its own right after `match_ended` (it "
        "is recorded at the time of the end): every seat's rating in the game `before` and `after` the "
        "match, with "
        "the seat's `player_id` (a server bot's is `bot-<level>`), `mu`, `sigma`, the displayed `rating` "
        "(mu − 3 sigma) and whether it is `provisional`. Show `after.rating − before.rating` beside each "
        'name ("+1.2"). Nothing else changes: the match stays as it ended.',
        "draft_step": "Only the drafting seat receives this: one step of its open turn draft, with the "
        "`action` it sent and the game `events` that step caused (as that seat sees them). Nothing is "
        "public yet: apply them to your own screen only.",
        "draft_undone": "Only the drafting seat receives this: its last draft step was taken back.",
        "draft_changed": "What everybody else receives instead of `draft_step` and `draft_undone`: only "
        "that `seat` is working on its turn (show it as thinking); the steps stay private.",
        "draft_published": "The draft became public: `steps` steps' game events follow in the same "
        "commit, then those of the action that finished the turn. Every viewer receives it.",
    },
    variants={"match_ended": "reason", "seat_taken_over": "reason"},
    glossary={
        "seat": "The seat it concerns (seats count from 0).",
        "action": "The action of this step as the seat sent it (one of the game's actions).",
        "events": "The game events this step caused, as this seat sees them.",
        "bank_s": "Seconds left in the seat's bank (bank clocks only; null otherwise).",
        "bot": "Whether a server bot holds the seat.",
        "can_finish": "Whether `finish_turn` is possible now.",
        "deadline": "When the seat's time runs out (UTC, `Z`).",
        "details": "The game's own details of the result.",
        "level": "The server bot's level (`random`, `greedy` or `ismcts`).",
        "SeatJoined.name": "The player's display name (a server bot's is chosen by the server).",
        "player_id": "The player holding the seat with a player key; null otherwise.",
        "seed": "The seat's seed for the deal (docs/fairness.md): shown to that seat only until the end, "
        "null for every other viewer and in matches dealt at creation.",
        "policy": "What follows: `bot` (a server bot decides) or `forfeit` (the seat loses).",
        "reason": "Why (one of the values in the JSON column; see the text above).",
        "scores": "Final scores per seat; null when the game was not played out.",
        "steps": "How many steps the draft has (in `draft_published`: whose game events follow).",
        "winners": "The winning seats (several on a tie).",
        "changes": "One entry per seat, in seat order.",
        "before": "The player's rating in the game before this match.",
        "after": "The player's rating in the game after this match.",
        "mu": "The rating model's mean (docs/ratings.md).",
        "sigma": "The rating model's uncertainty.",
        "rating": "The displayed rating, mu − 3 sigma.",
        "provisional": "Fewer than 10 rated games in this game (left off the leaderboard).",
        "RatingChange.player_id": "The player (a server bot's level is the player `bot-<level>`).",
    },
)
