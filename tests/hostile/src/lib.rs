//! Hostile input in both directions: the sandbox fed garbage requests, the SDK fed garbage servers, and property-based fuzz targets with committed regression seeds.
