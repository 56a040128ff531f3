"""Exact money both ways, never through a binary float. The spec types
request and response amounts as JSON numbers (`format: decimal`, B65) except
the payout's `amount`, a string (`DecimalString`); openapi-python-client
types the numbers as `float`. So: read the response's text with every number
a `Decimal`, and write request bodies whose amounts are `Decimal`s as JSON
numbers with exactly their digits. Copy this file.

    response = initiate_payment.sync_detailed(client=client, body=...)   # models: amounts as float
    data = read_exact(response.content)["data"]                          # data["amount"] is a Decimal
    client.get_httpx_client().post("/api/initiate-payment", content=write_exact(body), headers=JSON)
"""

import json
from decimal import Decimal

JSON = {"content-type": "application/json"}


def read_exact(content):
    """The body (bytes or text) with every number a Decimal."""
    return json.loads(content, parse_float=Decimal, parse_int=Decimal)


def plain(value):
    """A Decimal in plain notation, never with an exponent."""
    if not isinstance(value, Decimal) or not value.is_finite():
        raise TypeError(f"{value!r} is not a finite Decimal")
    return format(value, "f")


def write_exact(body):
    """JSON text of a request body whose amounts are Decimals, each written
    as a JSON number with exactly its digits."""
    digits = {}

    def swap(value):
        # Each Decimal becomes a token no other string can be, replaced by
        # its digits once the rest is written.
        if isinstance(value, Decimal):
            token = f"\x00decimal{len(digits)}\x00"
            digits[json.dumps(token)] = plain(value)
            return token
        if isinstance(value, dict):
            return {key: swap(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [swap(item) for item in value]
        if isinstance(value, float):
            raise TypeError(f"{value!r} is a binary float: send amounts as Decimal")
        return value

    text = json.dumps(swap(body), separators=(",", ":"))
    for token, number in digits.items():
        text = text.replace(token, number)
    return text


def decimal_string(value):
    """A `DecimalString` (a payout's `amount`): no sign, no exponent."""
    text = plain(value)
    if text.startswith("-"):
        raise ValueError(f"{text} is not a DecimalString (no sign, no exponent)")
    return text
