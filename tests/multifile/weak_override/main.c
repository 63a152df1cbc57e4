/* Weak definitions another object replaces (driver.c defines a strong
   hook), an alias the driver calls, a weak reference the driver defines:
   sonopt must not inline or evaluate the weak hook into run_hook. */
__attribute__((weak)) int hook(int x) { return x + 1; }
__attribute__((weak)) int weak_data = 1;
extern int provided(void) __attribute__((weak));
int run_hook(int x) { return hook(x) * 10 + weak_data; }
int call_provided(void) { return provided ? provided() : -1; }
int base_impl(int x) { return x * 3; }
int public_name(int x) __attribute__((alias("base_impl")));
