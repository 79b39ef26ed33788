/* Preloaded into the sanitizer test runs (presets asan and fuzz): makes dlclose() a no-op, so the
 * Vulkan driver and layers the loader opens stay mapped until the process ends. Otherwise the loader
 * unloads them at vkDestroyInstance, and memory they still reference from their own static storage
 * looks leaked to LeakSanitizer's check at exit, from an "<unknown module>" it cannot even name. */
int dlclose(void* handle) {
    (void)handle;
    return 0;
}
