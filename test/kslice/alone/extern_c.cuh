// extern_c.cu's header: the host's handle, declared with C linkage on
// one line.
#pragma once
extern "C" unsigned long long gain_handle;
