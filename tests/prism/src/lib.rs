//! Conformance of the SDK and the sandbox to openapi/crossborder.yaml through Prism: a validating proxy between them, and the SDK against random spec-valid mock answers.
