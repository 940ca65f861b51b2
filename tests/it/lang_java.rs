//! Function analysis fixtures for java (being written).
