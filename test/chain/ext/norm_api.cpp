// A plain C++ API in a file of its own: no kernel, no binding, no
// registration, only a call of the launcher norm.cu defines.
void sumsq_launch(const float *x, float *out, int n);

void squared_norm(const float *x, float *out, int n) {
  sumsq_launch(x, out, n);
}
