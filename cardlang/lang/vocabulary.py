"""The fixed words of the language that the checker and the runtime both need (a leaf module, so that
the runtime takes them without the checker): the deck presets `deck` may name, and the poker hand
categories a `ranking` may list."""

STANDARD_SUITS = ("clubs", "diamonds", "hearts", "spades")

# Presets list ranks from low to high as poker players order them; a game declares its own orders.
PRESETS = {
    "standard": ("2 3 4 5 6 7 8 9 10 J Q K A".split(), STANDARD_SUITS),
    "piquet": ("7 8 9 10 J Q K A".split(), STANDARD_SUITS),
}
JOKER = "Joker"

# The poker hand categories, lowest first, as in poker
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

# Cards a set of cards is chosen among (`a set cs of 2 cards from Z`), a rule error beyond: a set's
# value, its number among the subsets of 16 places, keeps in the 16 bits of an action id.
MAX_SET_SOURCE = 16
