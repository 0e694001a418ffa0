"""Currencies: the ISO 4217 code a hand's money is in, and that code's minor units.

A hand gives its money as PHH ``currency`` (an ISO 4217 code, ``USD``) or ``currency_symbol``
(as the site writes it, ``$``). Reports name it by its code, so that ``USD`` and ``$`` hands add
up in one group, and keep the symbol as written beside it. A hand's amounts are held at no fewer
decimal places than its currency's minor units (ISO 4217's exponent: 2 for USD, 0 for JPY, 3
for KWD), so that every hand of one currency has the same scale unless one needs finer (a
fraction of a cent); chips (no currency) are integers unless the hand needs finer.
"""

from __future__ import annotations

from typing import Final

# ISO 4217 codes whose minor unit is not 2 decimal places (ISO 4217 list one, the exponent
# column); every other code of three letters A-Z is taken at 2.
MINOR_UNITS: Final[dict[str, int]] = {
    "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
    "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
    "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
    "CLF": 4, "UYW": 4,
    # Not money of a country (ISO 4217 gives them no minor unit, so amounts in them are whole
    # units here): gold, silver, platinum, palladium, the bond-market units, SDR, SUCRE, the ADB
    # unit of account, the testing code XTS and XXX, the code for "no currency involved".
    "XAU": 0, "XAG": 0, "XPT": 0, "XPD": 0, "XBA": 0, "XBB": 0, "XBC": 0, "XBD": 0, "XDR": 0, "XSU": 0,
    "XUA": 0, "XTS": 0, "XXX": 0,
}
DEFAULT_MINOR_UNITS: Final = 2

# Symbols sites write, and the code each stands for there. "$" is the US dollar on the sites
# whose logs write it (PokerStars, Full Tilt); a site in another dollar names its code.
SYMBOLS: Final[dict[str, str]] = {
    "$": "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₩": "KRW", "₹": "INR", "₽": "RUB",
    "₺": "TRY", "฿": "THB", "₱": "PHP", "₫": "VND", "₪": "ILS", "zł": "PLN", "C$": "CAD", "CA$": "CAD",
    "A$": "AUD", "AU$": "AUD", "R$": "BRL", "NZ$": "NZD", "HK$": "HKD", "S$": "SGD", "CHF": "CHF",
}


def is_code(text: str) -> bool:
    """Three letters A-Z: the form of an ISO 4217 code."""
    return len(text) == 3 and text.isascii() and text.isalpha() and text.isupper()


def iso_code(currency: object, symbol: object) -> str | None:
    """The hand's currency as an ISO 4217 code: ``currency`` (``usd`` read as ``USD``), else the
    code of ``symbol`` (``$`` -> ``USD``); a text that is neither a code nor a known symbol is
    kept as written (money of its own, never added to another); None for chips."""
    for value in (currency, symbol):
        if isinstance(value, str) and value:
            text = value.strip()
            if is_code(text.upper()):
                return text.upper()
            code = SYMBOLS.get(text)
            if code is not None:
                return code
    for value in (currency, symbol):
        if isinstance(value, str) and value:
            return value
    return None


def minor_units(code: str | None) -> int:
    """Decimal places of the currency's minor unit (ISO 4217); 0 for chips and for a text that is
    not a code (its hands keep the places their amounts need)."""
    if code is None or not is_code(code):
        return 0
    return MINOR_UNITS.get(code, DEFAULT_MINOR_UNITS)


def hand_minor_units(currency: object, symbol: object) -> int:
    """:func:`minor_units` of :func:`iso_code`: the fewest decimal places a hand's amounts take."""
    if currency is None and symbol is None:
        return 0
    return minor_units(iso_code(currency, symbol))
