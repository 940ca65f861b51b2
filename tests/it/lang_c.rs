//! Function analysis fixtures for c (being written).
