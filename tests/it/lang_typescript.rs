//! Function analysis fixtures for typescript (being written).
