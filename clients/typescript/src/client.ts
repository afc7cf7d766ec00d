/**
 * `DragoClient`: every route of the API (generated/api.ts), the live streams, typed.
 *
 *     const api = new DragoClient("http://127.0.0.1:8000");
 *     const match = await api.createMatch({ game: "yutaka", players: 2 });
 *     const seat = await api.joinSeat(match.id, 0, { name: "Ada" });
 *     for await (const commit of api.follow(match.id, { token: seat.token })) console.log(commit.seq);
 */

import { Api } from "./generated/api.js";
import type { CommitFrame, HelloFrame, NoticeFrame, PlayerHelloFrame } from "./generated/models.js";
import { follow, followPlayer } from "./streams.js";
import type { FollowOptions, FollowPlayerOptions } from "./streams.js";

export class DragoClient extends Api {
  /** The match's commit frames after `after`, each exactly once, in order, across reconnects. */
  follow(matchId: string, options: FollowOptions & { hellos: true }): AsyncGenerator<CommitFrame | HelloFrame, void, undefined>;
  follow(matchId: string, options?: FollowOptions & { hellos?: false }): AsyncGenerator<CommitFrame, void, undefined>;
  follow(matchId: string, options: FollowOptions = {}): AsyncGenerator<CommitFrame | HelloFrame, void, undefined> {
    return follow(this, matchId, options);
  }

  /** The player's notices after cursor `after`, each exactly once, in order, across reconnects. */
  followPlayer(options: FollowPlayerOptions & { hellos: true }): AsyncGenerator<NoticeFrame | PlayerHelloFrame, void, undefined>;
  followPlayer(options?: FollowPlayerOptions & { hellos?: false }): AsyncGenerator<NoticeFrame, void, undefined>;
  followPlayer(options: FollowPlayerOptions = {}): AsyncGenerator<NoticeFrame | PlayerHelloFrame, void, undefined> {
    return followPlayer(this, options);
  }
}
