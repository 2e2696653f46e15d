"""The fixed vocabulary of poker hand categories a `ranking` may list (lowest first, as in poker)."""

CATEGORIES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "five_of_a_kind",
)
