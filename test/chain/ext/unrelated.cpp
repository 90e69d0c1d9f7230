// Calls nothing of the chain: not parsed for it.
int unrelated_helper(int x) { return x + 1; }
