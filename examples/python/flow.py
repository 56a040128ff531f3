"""The whole API flow through the client openapi-python-client generates from
openapi/crossborder.yaml, against a running sandbox: see "From TypeScript or
Python" in the repository's README.md.

Every amount is read exactly: the generated models type amounts as float
(openapi-python-client 0.29.1 maps every `number` to float whatever its
`format`), so each amount is taken from the response's raw JSON text with
`json.loads(..., parse_float=Decimal)`, and the model's float is only checked
to agree with it. Prints each comparison; exits 1 on the first difference.

Environment: CROSSBORDER_BASE_URL (http://127.0.0.1:8080/v1),
CROSSBORDER_API_KEY (test_sandbox_key), CROSSBORDER_EXPECTED (optional: a JSON
file of the amounts the Rust SDK read for the same requests, by name; each is
then compared too, and every one must be read), CROSSBORDER_PDF (the KYB
document, default ../certificate-of-incorporation.pdf from here).
"""

import json
import os
import sys
import uuid
from decimal import Decimal
from io import BytesIO
from pathlib import Path

import httpx
from crossborder_client import AuthenticatedClient, Client
from crossborder_client.api.banks import get_bank_list, resolve_bank
from crossborder_client.api.businesses import (
    add_director,
    add_ubo,
    create_business,
    get_business,
    upload_document,
)
from crossborder_client.api.collections import get_transaction, initiate_payment
from crossborder_client.api.payouts import create_payout
from crossborder_client.api.quotes import get_quote
from crossborder_client.api.sandbox import simulate_funding
from crossborder_client.api.wallet import get_balance
from crossborder_client.api.webhooks import set_webhook
from crossborder_client.models import (
    Address,
    BusinessType,
    CreateBusinessRequest,
    Currency,
    DocumentLink,
    Documents,
    IdType,
    InitiatePaymentRequest,
    NatureOfBusiness,
    PayoutRequest,
    PersonRequest,
    ProofOfAddress,
    ProofOfAddressType,
    Rail,
    ResolveBankRequest,
    SetWebhookRequest,
    SimulateFundingRequest,
    UploadDocumentRequest,
)
from crossborder_client.types import UNSET, File

BASE_URL = os.environ.get("CROSSBORDER_BASE_URL", "http://127.0.0.1:8080/v1")
API_KEY = os.environ.get("CROSSBORDER_API_KEY", "test_sandbox_key")
PDF = Path(
    os.environ.get(
        "CROSSBORDER_PDF", Path(__file__).resolve().parent.parent / "certificate-of-incorporation.pdf"
    )
)

# The amounts this flow sends (the Rust reference sends the same).
QUOTE_AMOUNT = Decimal("123.45")
COLLECTION_AMOUNT = Decimal("50000.10")
SAME_CURRENCY_PAYOUT = Decimal("1000.50")


class Difference(Exception):
    pass


def same(what, got, want):
    """One comparison, printed; a difference ends the run."""
    if got != want:
        raise Difference(f"{what}: read {got!r}, expected {want!r}")
    shown = f"{len(got)} bytes, equal" if isinstance(got, bytes) else got
    print(f"ok  {what}: {shown}")


EXPECTED = {}
READ = set()
if os.environ.get("CROSSBORDER_EXPECTED"):
    EXPECTED = json.loads(Path(os.environ["CROSSBORDER_EXPECTED"]).read_text(), parse_float=Decimal)


def raw(response):
    """The response body with every number an exact Decimal."""
    return json.loads(response.content, parse_float=Decimal, parse_int=Decimal)


def amount(name, exact, model_value):
    """An amount read exactly, checked against the generated model's float
    (which must be there: a field the model lost is a difference) and, when
    given, against what the Rust SDK read."""
    if model_value is UNSET or model_value is None:
        raise Difference(f"{name}: the generated model has no value (read {exact} from the raw JSON)")
    if float(model_value) != float(exact):
        raise Difference(f"{name}: the generated model's float {model_value!r} is not {exact}")
    if name in EXPECTED:
        want = EXPECTED[name]
        if exact != Decimal(want):
            raise Difference(f"{name}: read {exact}, the Rust SDK read {want}")
        READ.add(name)
        print(f"ok  {name} = {exact} (the Rust SDK read {want}; the model's float {model_value!r})")
    else:
        print(f"ok  {name} = {exact} (the model's float {model_value!r})")
    return exact


def as_float(value):
    """A request amount for a `number` field the generated model types as
    float: refused unless the float's shortest text (what json.dumps writes)
    is the decimal itself, so the wire carries exactly the amount meant."""
    f = float(value)
    if Decimal(repr(f)) != value:
        raise Difference(f"{value} cannot be sent exactly through the generated float field")
    return f


def ok(response, what):
    if response.status_code != 200:
        raise Difference(f"{what}: HTTP {response.status_code}: {response.content!r}")
    return response.parsed


def main():
    run = uuid.uuid4().hex[:12]
    client = AuthenticatedClient(base_url=BASE_URL, token=API_KEY, prefix="", auth_header_name="x-api-key")
    print(f"python flow against {BASE_URL} (run {run})")

    def balance(currency, name):
        r = get_balance.sync_detailed(currency, client=client)
        return amount(name, raw(r)["data"]["balance"], ok(r, name).data.balance)

    ngn_start = balance(Currency.NGN, "balance.NGN.start")
    usd_start = balance(Currency.USD, "balance.USD.start")

    # A quote pinned to a rail. The path's amount is typed float; a Decimal
    # formats as written, so it is passed as is.
    r = get_quote.sync_detailed(Currency.USD, Currency.NGN, QUOTE_AMOUNT, rail=Rail.SWIFT, client=client)
    quote, body = ok(r, "quote"), raw(r)["data"]
    q = {
        k: amount(f"quote.{k}", body[k], getattr(quote.data, attr))
        for k, attr in [
            ("rate", "rate"),
            ("roundedRate", "rounded_rate"),
            ("fee", "fee"),
            ("toAmount", "to_amount"),
            ("totalAmount", "total_amount"),
        ]
    }
    same("quote.totalAmount = amount + fee", q["totalAmount"], QUOTE_AMOUNT + q["fee"])

    # A same-currency collection, paid in full by a simulated funding.
    reference = f"py-{run}"
    r = initiate_payment.sync_detailed(
        client=client,
        body=InitiatePaymentRequest(
            amount=as_float(COLLECTION_AMOUNT),
            from_currency=Currency.NGN,
            to_currency=Currency.NGN,
            payment_reference=reference,
        ),
    )
    created = ok(r, "collection").data
    same("collection.status", created.status, "PENDING")
    amount("collection.created.amount", raw(r)["data"]["amount"], created.amount)
    r = simulate_funding.sync_detailed(
        client=client,
        body=SimulateFundingRequest(
            currency=Currency.NGN,
            amount=as_float(COLLECTION_AMOUNT),
            narration=created.pay_refrence,
            session_id=f"py-fund-{run}",
        ),
    )
    ok(r, "simulate-funding")
    r = get_transaction.sync_detailed(reference, client=client)
    tx, body = ok(r, "collection read").data, raw(r)["data"]
    same("collection.read.status", tx.status, "COMPLETED")
    for k, attr in [
        ("amount", "amount"),
        ("paidAmount", "paid_amount"),
        ("toAmount", "to_amount"),
        ("totalAmount", "total_amount"),
        ("fee", "fee"),
        ("rate", "rate"),
    ]:
        amount(f"collection.read.{k}", body[k], getattr(tx, attr))
    same("collection.read.paidAmount = amount funded", body["paidAmount"], COLLECTION_AMOUNT)
    ngn_funded = balance(Currency.NGN, "balance.NGN.funded")
    same("balance.NGN.funded = start + funded", ngn_funded, ngn_start + COLLECTION_AMOUNT)

    # Payouts: one same-currency, one converting with the quote's rate key.
    bank = {
        "account_number": "0123456789",
        "account_name": "ADAEZE OKAFOR",
        "bank_name": "Guaranty Trust Bank",
        "bank_code": "058",
    }
    payouts = [
        ("same", f"py-pay-{run}", Currency.NGN, SAME_CURRENCY_PAYOUT, UNSET),
        ("converting", f"py-fx-{run}", Currency.USD, QUOTE_AMOUNT, quote.data.rate_key),
    ]
    for kind, session, source, value, rate_key in payouts:
        r = create_payout.sync_detailed(
            client=client,
            body=PayoutRequest(
                amount=str(value),
                from_currency=source,
                to_currency=Currency.NGN,
                session_id=session,
                rate_key=rate_key,
                narration=f"spec-reuse {kind}",
                **bank,
            ),
        )
        same(f"payout.{kind}.sessionId echoed", ok(r, f"payout {kind}").session_id, session)
        r = get_transaction.sync_detailed(session, client=client)
        tx, body = ok(r, f"payout {kind} read").data, raw(r)["data"]
        same(f"payout.{kind}.type", tx.type_, "PAYOUT")
        same(f"payout.{kind}.paymentReference", tx.payment_reference, session)
        same(f"payout.{kind}.status", tx.status, "COMPLETED")
        for k, attr in [
            ("amount", "amount"),
            ("toAmount", "to_amount"),
            ("totalAmount", "total_amount"),
            ("fee", "fee"),
            ("rate", "rate"),
        ]:
            amount(f"payout.{kind}.{k}", body[k], getattr(tx, attr))
        same(f"payout.{kind}.amount = amount sent", body["amount"], value)
    for k in ["rate", "fee", "toAmount", "totalAmount"]:
        same(f"payout.converting.{k} = quote.{k}", body[k], q[k])
    same(
        "balance.NGN.end = funded - payout",
        balance(Currency.NGN, "balance.NGN.end"),
        ngn_funded - SAME_CURRENCY_PAYOUT,
    )
    same(
        "balance.USD.end = start - quote.totalAmount",
        balance(Currency.USD, "balance.USD.end"),
        usd_start - q["totalAmount"],
    )

    # Banks.
    banks = ok(get_bank_list.sync_detailed(Currency.NGN, Currency.NGN, client=client), "bank list").data
    same("bank list has 058", [b.name for b in banks if b.code == "058"], ["Guaranty Trust Bank"])
    r = resolve_bank.sync_detailed(
        client=client,
        body=ResolveBankRequest(
            account_number="0123456789", bank_code="058", from_currency=Currency.NGN, to_currency=Currency.NGN
        ),
    )
    same("resolve-bank accountName", ok(r, "resolve-bank").data.account_name, "ADAEZE OKAFOR")

    # KYB: a real PDF uploaded as multipart, then the business and its people.
    pdf = PDF.read_bytes()
    r = upload_document.sync_detailed(
        client=client,
        body=UploadDocumentRequest(
            file=File(payload=BytesIO(pdf), file_name=PDF.name, mime_type="application/pdf")
        ),
    )
    link = ok(r, "upload").data.link
    # The link is not an operation of the spec; it is read with the uploader's key.
    same("uploaded document's bytes", httpx.get(link, headers={"x-api-key": API_KEY}).content, pdf)
    doc = lambda key: DocumentLink(url=link, key=key)
    documents = Documents()
    for key in ["cac_document", "bank_statement", "application_letter", "cac_status_report"]:
        documents[key] = doc(key)
    address = Address(
        house_number="12", street="Admiralty Way", city="Lekki", state="Lagos", zip_code="106104"
    )
    r = create_business.sync_detailed(
        client=client,
        body=CreateBusinessRequest(
            name="Lagos Trading Ltd",
            business_type=BusinessType.LLC,
            registration_number=f"RC{run}",
            email="compliance@lagostrading.ng",
            phone_number="+2348012345678",
            nature_of_business=NatureOfBusiness(nature="Wholesale", code="4652"),
            business_address=address,
            proof_of_address=ProofOfAddress(url=link, key="utility", type_=ProofOfAddressType.UTILITY_BILL),
            documents=documents,
        ),
    )
    business = ok(r, "create business").data
    same("business.status after create", business.status, "PENDING")
    person = {
        "first_name": "Adaeze",
        "last_name": "Okafor",
        "date_of_birth": "1985-04-12",
        "nationality": "NG",
        "phone_number": "+2348031234567",
        "id_number": "A12345678",
        "id_type": IdType.CURRENTPASSPORT,
        "id_document_url": link,
        "address": address,
        "document": doc("director-utility"),
    }
    d = ok(
        add_director.sync_detailed(business.id, client=client, body=PersonRequest(**person)), "director"
    ).data
    same("director.role", (d.role, d.business_id), ("DIRECTOR", business.id))
    u = ok(
        add_ubo.sync_detailed(
            business.id, client=client, body=PersonRequest(**person, ownership_percentage="60")
        ),
        "ubo",
    ).data
    same("ubo.role, submitted", (u.role, u.submitted, u.business_status), ("UBO", True, "SUBMITTED"))
    status = ok(get_business.sync_detailed(business.id, client=client), "business status").data
    same("business.status decided", status.status, "APPROVED")

    r = set_webhook.sync_detailed(
        client=client, body=SetWebhookRequest(webhook_url="http://127.0.0.1:9/hook")
    )
    same("set-webhook message", ok(r, "set-webhook").message, "Webhook URL set successfully")

    # One documented error of each kind, decoded by the generated ErrorResponse.
    def error(r, status, message):
        same(f"HTTP {status} status", (r.status_code, r.parsed.status_code), (status, status))
        same(f"HTTP {status} message", r.parsed.message, message)
        return r.parsed

    wrong_key = AuthenticatedClient(
        base_url=BASE_URL, token="test_unknown_key", prefix="", auth_header_name="x-api-key"
    )
    error(get_balance.sync_detailed(Currency.NGN, client=wrong_key), 401, "Invalid api key")
    error(
        get_balance.sync_detailed(Currency.NGN, client=Client(base_url=BASE_URL)),
        403,
        "API key header needed",
    )
    rule = "is required when toCurrency is NGN"
    fields = ["accountNumber", "accountName", "bankName", "bankCode"]
    e = error(
        create_payout.sync_detailed(
            client=client,
            body=PayoutRequest(
                amount="1", from_currency=Currency.NGN, to_currency=Currency.NGN, session_id=f"py-bad-{run}"
            ),
        ),
        400,
        "; ".join(f"{f}: {rule}" for f in fields),
    )
    same("HTTP 400 field errors", [(x.field, x.message) for x in e.errors], [(f, rule) for f in fields])
    missing = f"py-missing-{run}"
    error(get_transaction.sync_detailed(missing, client=client), 404, f"Transaction not found: {missing}")

    unread = sorted(set(EXPECTED) - READ)
    if unread:
        raise Difference(f"amounts the Rust SDK read that this flow did not: {unread}")
    against = f"{len(READ)} amounts equal to the Rust SDK's" if EXPECTED else "no Rust SDK reference given"
    print(f"python flow: every comparison held ({against})")


if __name__ == "__main__":
    try:
        main()
    except Difference as difference:
        print(f"DIFFERENCE {difference}", file=sys.stderr)
        sys.exit(1)
