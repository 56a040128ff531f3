"""Paying a payout once across retries, the recipe behind the Rust SDK's
`Payouts::create_or_get`: the payout's `sessionId` is its idempotency key,
chosen once and stored before the first attempt, and every attempt reads the
payout by that id before sending. A retry (after a timeout, a crash or a lost
response) then finds the payout instead of sending it again, and a retried
converting payout never re-quotes into a 409. Copy this file.

    transaction, sent = pay_once(client, {"sessionId": stored_id, "amount": decimal_string(amount), ...})
"""

import json

import httpx

from money import JSON, read_exact, write_exact


def read_payout(client, session_id):
    """The payout with this session id (exact amounts), or None on a 404."""
    response = client.get_httpx_client().get(f"/api/transaction/{session_id}")
    if response.status_code == 404:
        return None
    if response.status_code != 200:
        raise RuntimeError(f"reading payout {session_id}: HTTP {response.status_code}")
    return read_exact(response.content)["data"]


def pay_once(client, request):
    """Sends `request` (the payout's JSON fields) unless a payout with its
    `sessionId` exists; returns (the payout, whether this call sent it)."""
    session_id = request["sessionId"]
    existing = read_payout(client, session_id)
    if existing is not None:
        return existing, False
    try:
        response = client.get_httpx_client().post("/api/payout", content=write_exact(request), headers=JSON)
    except httpx.TransportError as error:
        failure = error  # the connection failed: it may have been applied
    else:
        if response.status_code == 200:
            sent = read_payout(client, session_id)
            if sent is None:
                raise RuntimeError(f"payout {session_id} accepted but not found")
            return sent, True
        # 409: the session id is taken (an earlier attempt won); 5xx: the
        # outcome is unknown. Either way, read before anything else.
        failure = RuntimeError(f"payout {session_id}: HTTP {response.status_code}: {response.text}")
        if response.status_code != 409 and response.status_code < 500:
            raise failure
    found = read_payout(client, session_id)
    if found is not None:
        return found, False
    raise failure
