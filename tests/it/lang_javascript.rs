//! Function analysis fixtures for javascript (being written).
