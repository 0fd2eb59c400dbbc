// How a message quotes text the client sent (a path), shared by the refusals that quote it (files/pathErrors)
// and the masking that must recognise the quote as the client's own (maskForClient). Not public.

const ECHO_PREFIX = 200;

/** The text whole, or beyond 400 characters its first 200 and `…` (an oversized path is refused for its size). */
export function echoOfClientText(text: string): string {
  return text.length > ECHO_PREFIX * 2 ? `${text.slice(0, ECHO_PREFIX)}…` : text;
}
