/**
 * What this browser holds for a match, in localStorage: the tokens of the seats it joined (a
 * person may hold several seats of one match, e.g. to try a game alone) and, for a match it
 * created, the host token and invite code. Tokens are shown by the server once; losing them means
 * asking the host to reissue the seat's token.
 */

export interface SeatCredential {
  token: string;
  name: string;
}

export interface MatchCredentials {
  seats: Record<string, SeatCredential>;
  host?: { token: string; invite: string | null };
  invite?: string | null;
}

const key = (matchId: string): string => `drago:match:${matchId}`;

export function credentials(matchId: string): MatchCredentials {
  try {
    const raw = localStorage.getItem(key(matchId));
    const parsed = raw ? (JSON.parse(raw) as Partial<MatchCredentials>) : {};
    return { seats: parsed.seats ?? {}, ...(parsed.host ? { host: parsed.host } : {}), invite: parsed.invite ?? null };
  } catch {
    return { seats: {} };
  }
}

function save(matchId: string, value: MatchCredentials): void {
  localStorage.setItem(key(matchId), JSON.stringify(value));
}

export function saveSeat(matchId: string, seat: number, credential: SeatCredential): void {
  const current = credentials(matchId);
  current.seats[String(seat)] = credential;
  save(matchId, current);
}

export function forgetSeat(matchId: string, seat: number): void {
  const current = credentials(matchId);
  delete current.seats[String(seat)];
  save(matchId, current);
}

export function saveHost(matchId: string, token: string, invite: string | null): void {
  save(matchId, { ...credentials(matchId), host: { token, invite }, invite });
}

export function saveInvite(matchId: string, invite: string): void {
  save(matchId, { ...credentials(matchId), invite });
}

/** The seats this browser holds in a match, in seat order. */
export function heldSeats(matchId: string): number[] {
  return Object.keys(credentials(matchId).seats).map(Number).sort((a, b) => a - b);
}

/** The name last used to join a seat, offered again. */
export function lastName(): string {
  return localStorage.getItem("drago:name") ?? "";
}

export function rememberName(name: string): void {
  localStorage.setItem("drago:name", name);
}
