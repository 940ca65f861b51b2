//! Function analysis fixtures for go (being written).
