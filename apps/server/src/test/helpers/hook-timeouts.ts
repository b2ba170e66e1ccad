/**
 * For a setup hook that boots a test database or app. Measured: booting the test app on embedded PGlite
 * (migrations included) took 42–51 s on a 2-core machine at a load average of 14–16: jest's 60 s was
 * too close. The server's jest testTimeout is the same.
 */
export const SETUP_TIMEOUT_MS = 180_000;
