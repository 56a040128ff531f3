//! What the client and its futures are: `Send` and `Sync`.

use super::*;

#[test]
fn clients_errors_and_futures_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>(_: &T) {}
    send_sync::<crossborder::Client>();
    send_sync::<Error>();
    let client = crossborder::Client::builder()
        .api_key(KEY)
        .base_url("https://api.example.org/v1")
        .build()
        .unwrap();
    send(&client.wallet().balance(Currency::Ngn));
    send(&client.payouts().create(&super::payouts::example_payout()));
    send(&client.businesses().upload_document(vec![1u8], "a.pdf"));
    send(
        &client
            .collections()
            .wait_until_settled("r", WaitOptions::default()),
    );
    send(
        &client
            .sandbox()
            .simulate_funding(&SimulateFundingRequest::new(
                Currency::Ngn,
                dec("1"),
                "m",
                "s",
            )),
    );
}
