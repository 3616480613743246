/*
 * Test scaffolding for running perftest's Windows build under Wine 8.0 (Debian 12), never
 * shipped: Rust's standard library (1.78 and later) imports ProcessPrng from
 * bcryptprimitives.dll, which that Wine lacks. This DLL, placed beside the .exe, provides it on
 * top of advapi32's SystemFunction036 (RtlGenRandom). Built by `cargo xtask windows` with
 * mingw-w64.
 */
#include <windows.h>

typedef BOOLEAN(WINAPI *rtl_gen_random)(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    static rtl_gen_random generate;
    if (!generate) {
        HMODULE advapi = LoadLibraryA("advapi32.dll");
        if (!advapi)
            return FALSE;
        generate = (rtl_gen_random)GetProcAddress(advapi, "SystemFunction036");
        if (!generate)
            return FALSE;
    }
    while (length) {
        ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!generate(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
