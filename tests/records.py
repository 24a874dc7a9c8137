"""A whole journal record filled at once, as ``firmware.journal.Journal`` fills it in
parts at each entry."""

from firmware import journal


def encode(buf, seq, game, clock, claims, turn_ms, log_count):
    journal.encode_head(buf, seq, game, clock, turn_ms)
    journal.encode_side(buf, clock.sides[0], journal.SIDE_AT[0])
    journal.encode_side(buf, clock.sides[1], journal.SIDE_AT[1])
    journal.encode_claims(buf, claims, log_count)
    journal.seal(buf)
