/* The passthrough floor: the least a PATH shim can do is exec the real git.
 * Built static by `make bench` with REAL_GIT defined; its added latency over calling git
 * directly is the budget's unit (the shim may add at most 1.5x of it). */
#include <unistd.h>

int main(int argc, char **argv) {
    (void)argc;
    execv(REAL_GIT, argv);
    return 127;
}
