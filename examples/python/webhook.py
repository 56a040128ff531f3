"""Webhook confirmation: an event is unsigned (ASSUMPTIONS A27), so it is
only a hint; read the collection with GET /api/transaction/{reference} and
act on what the service says. The verdicts are the Rust SDK's
(`crossborder::webhook::verify`): the same table of cases,
examples/webhook-cases.json, is checked against both. Copy this file.

    verdict = confirm(request_body, read_transaction(client))
    if verdict.kind == "confirmed" and verdict.change == "completed":
        ship(verdict.transaction)
"""

import json
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

COMPLETED = {"COMPLETED", "SUCCESS", "SUCCESSFUL", "PAID", "TRUE"}
PARTIAL = {"PARTIALLY_PAID", "PARTIAL"}
FAILED = {"FAILED", "EXPIRED", "CANCELLED", "CANCELED", "REJECTED", "REVERSED"}
RANK = {"open": 0, "partially_paid": 1, "completed": 2, "failed": 2, "unknown": None}


@dataclass
class Verdict:
    """`kind`: "confirmed" (act on `transaction`, never on the event),
    "superseded" (the collection moved on since, B72: ignore), or why it is
    unconfirmed ("unknown reference", "not a collection", "status mismatch",
    "paid mismatch", "unknown status", "request failed": do not act).
    `change`: what the event claims, "completed", "partially_paid", "failed"
    or "unknown"."""

    kind: str
    change: str = "unknown"
    transaction: dict = None
    overpaid: Decimal = None


def read_transaction(client):
    """A reader through the generated client: the transaction's JSON with
    exact amounts, or None when the API answers 404."""
    from crossborder_client.api.collections import get_transaction

    def read(reference):
        response = get_transaction.sync_detailed(reference, client=client)
        if response.status_code == 404:
            return None
        if response.status_code != 200:
            raise RuntimeError(f"GET /api/transaction/{reference}: HTTP {response.status_code}")
        return json.loads(response.content, parse_float=Decimal, parse_int=Decimal)["data"]

    return read


def _amount(value):
    if isinstance(value, bool) or value is None:
        return None
    try:
        return Decimal(str(value).strip()) if isinstance(value, (str, Decimal, int)) else None
    except InvalidOperation:
        return None


def parse_event(body):
    """The event's fields (A26), amounts exact; None without a reference or a status."""
    raw = json.loads(body, parse_float=Decimal, parse_int=Decimal)
    reference = next((r for r in (raw.get("reference"), raw.get("paymentReference"), raw.get("payRefrence")) if isinstance(r, str) and r), None)
    status = raw.get("status")
    if reference is None or not isinstance(status, (bool, str)):
        return None
    paid = raw.get("paidAmount", raw.get("amountPaid"))
    left = raw.get("remainingAmount", raw.get("remaining"))
    message = raw.get("message")
    paid, left, amount = _amount(paid), _amount(left), _amount(raw.get("amount"))
    if left is None and amount is not None and paid is not None:
        left = amount - paid  # what is left, when only the amounts are sent
    return {
        "reference": reference,
        "status": status,
        "paid": paid,
        "left": left,
        "reason": message.strip() or None if isinstance(message, str) else None,
    }


def classify(event):
    """What the event claims (A26), and an overpayment: `false` with
    something paid and something left is a partial payment, not a failure."""
    left, paid = event["left"], event["paid"]

    def completed():
        if left is not None and left > 0:
            return "unknown", None
        return "completed", (-left if left is not None and left < 0 else None)

    def falsy():
        if paid is not None and paid > 0 and left is not None and left > 0:
            return "partially_paid", None
        return ("failed", None) if event["reason"] else ("unknown", None)

    status = event["status"]
    if status is True:
        return completed()
    if status is False:
        return falsy()
    word = status.strip().upper()
    if word in COMPLETED:
        return completed()
    if word == "FALSE":
        return falsy()
    if word in PARTIAL:
        return "partially_paid", None
    if word in FAILED:
        return "failed", None
    if paid is not None and paid > 0 and left is not None:
        if left > 0:
            return "partially_paid", None
        return "completed", (-left if left < 0 else None)
    return "unknown", None


def _state(tx):
    status = tx["status"]
    if status in ("PENDING", "PROCESSING"):
        return "open"
    if status == "PARTIALLY_PAID":
        return "partially_paid"
    if status == "COMPLETED":
        return "completed"
    if status in ("EXPIRED", "FAILED"):
        return "failed"
    paid = _amount(tx.get("paidAmount"))
    if paid is not None and paid > 0:
        return "completed" if paid >= _amount(tx["amount"]) else "partially_paid"
    return "unknown"


def judge(event, tx):
    """The verdict on `event` given the transaction as read (A27, B72)."""
    if tx.get("type") == "PAYOUT":
        return Verdict("not a collection", transaction=tx)
    change, _ = classify(event)
    state = _state(tx)
    claimed = None if change == "unknown" else change
    then, now = event["paid"], _amount(tx.get("paidAmount"))
    paid_since = then is not None and now is not None and then < now
    sent = event["status"].strip() if isinstance(event["status"], str) else ""
    same_word = sent != "" and sent.upper() == str(tx["status"]).strip().upper()
    matches = same_word or (claimed is not None and claimed == state)
    claimed_rank = None if claimed is None else RANK[claimed]
    rank = RANK[state]
    if claimed in ("completed", "failed"):
        behind = False
    elif claimed_rank is not None and rank is not None:
        behind = claimed_rank < rank or (claimed_rank == rank and paid_since)
    else:
        behind = paid_since and state != "unknown"
    if not matches and not behind:
        return Verdict("unknown status" if state == "unknown" else "status mismatch", change, tx)
    if then is not None and now is not None and then > now:
        return Verdict("paid mismatch", change, tx)
    if matches and (rank == 2 or not paid_since):
        overpaid = None
        if change == "completed" and now is not None and now > _amount(tx["amount"]):
            overpaid = now - _amount(tx["amount"])
        return Verdict("confirmed", change, tx, overpaid)
    return Verdict("superseded", change, tx)


def confirm(body, read):
    """Parses the POSTed body, reads the transaction once and judges."""
    event = parse_event(body)
    if event is None:
        return Verdict("unknown reference")
    try:
        tx = read(event["reference"])
    except Exception:  # noqa: BLE001 - any failed read: do not act
        return Verdict("request failed")
    if tx is None:
        return Verdict("unknown reference")
    return judge(event, tx)
