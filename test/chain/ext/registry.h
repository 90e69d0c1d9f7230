// A device registry in the style of PyTorch extensions: an op's _impl
// function dispatches to whatever a backend file registered under its name.
#pragma once
#include <map>

template <typename F>
struct Registry {
  static Registry &instance() { static Registry r; return r; }
  std::map<int, F> impls;
  void add(int device, F f) { impls[device] = f; }
  F find(int device) { return impls[device]; }
};

#define DEVICE_CUDA 1
#define REGISTER_DEVICE_IMPL(key, device, value)                     \
  struct key##_##device##_registerer {                               \
    key##_##device##_registerer() {                                  \
      Registry<decltype(&key)>::instance().add(DEVICE_##device, value); \
    }                                                                \
  };                                                                 \
  static key##_##device##_registerer _##key##_##device##_registerer;

#define DISPATCH_DEVICE_IMPL(key, ...) \
  Registry<decltype(&key)>::instance().find(DEVICE_CUDA)(__VA_ARGS__)
