-- Converting payouts recorded without a rateKey and quoted by the
-- dispatcher just before each send, with an optional rate guard, and a
-- typed reason for a payout that ended unpaid.
--
-- payouts.rate_key, quote_valid_until: the quote the payout is (being) sent
--   with, recorded in the transaction that makes it `sending`.
-- payouts.min_rate, guard_until: the rate guard (the worst rate accepted,
--   decimal text) and until when a better quote is waited for (ms).
-- payouts.reason: why a refused or failed payout ended (JSON, with a code).
-- payout_events.quote: the quote an event used or turned down (JSON).
ALTER TABLE payouts ADD COLUMN rate_key TEXT;
ALTER TABLE payouts ADD COLUMN quote_valid_until INTEGER;
ALTER TABLE payouts ADD COLUMN min_rate TEXT;
ALTER TABLE payouts ADD COLUMN guard_until INTEGER;
ALTER TABLE payouts ADD COLUMN reason TEXT;
ALTER TABLE payout_events ADD COLUMN quote TEXT;
