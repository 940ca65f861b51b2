//! Function analysis fixtures for cpp (being written).
