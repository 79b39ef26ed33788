/* The volk meta-loader (Debian's libvulkan-volk-dev ships it as source), compiled into vkdml with
 * hidden visibility so its function pointers never clash with an application's Vulkan symbols. */
#include <volk.c>
