/* vmm.cuh — device buffers shared between the judge and the candidate's process
 * as CUDA virtual-memory allocations exported to POSIX descriptors: a kernel
 * capability held only by the processes it is passed to (a legacy IPC handle is
 * a 64-byte token that any local process knowing it could open). The driver
 * functions come through the runtime's entry-point query, so nothing links
 * libcuda and a machine without a driver still starts the binary.
 * Header-only, for the judge (tensor.cuh) and cand/main.cu. */
#ifndef CUA_VMM_CUH
#define CUA_VMM_CUH

#include <cuda.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

struct cua_vmm {
	bool ok;
	int device;
	CUresult (*create)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *,
	                   unsigned long long);
	CUresult (*release)(CUmemGenericAllocationHandle);
	CUresult (*reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
	CUresult (*addr_free)(CUdeviceptr, size_t);
	CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
	                unsigned long long);
	CUresult (*unmap)(CUdeviceptr, size_t);
	CUresult (*set_access)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
	CUresult (*export_fd)(void *, CUmemGenericAllocationHandle, CUmemAllocationHandleType,
	                      unsigned long long);
	CUresult (*import_fd)(CUmemGenericAllocationHandle *, void *, CUmemAllocationHandleType);
	CUresult (*granularity)(size_t *, const CUmemAllocationProp *,
	                        CUmemAllocationGranularity_flags);
	size_t gran;
};

static inline bool cua_vmm_sym(const char *name, void **fn)
{
	cudaDriverEntryPointQueryResult q;
	return cudaGetDriverEntryPointByVersion(name, fn, 12000, cudaEnableDefault, &q) ==
	           cudaSuccess && q == cudaDriverEntryPointSuccess && *fn;
}

static inline CUmemAllocationProp cua_vmm_prop(int device)
{
	CUmemAllocationProp p = {};
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = device;
	p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	return p;
}

/* Fills v for the current device (call after the runtime has a context).
 * Returns false, with v->ok false, when the driver lacks a function. */
static inline bool cua_vmm_init(struct cua_vmm *v)
{
	*v = cua_vmm{};
	if (cudaGetDevice(&v->device) != cudaSuccess)
		return false;
	bool ok = cua_vmm_sym("cuMemCreate", (void **)&v->create) &&
	          cua_vmm_sym("cuMemRelease", (void **)&v->release) &&
	          cua_vmm_sym("cuMemAddressReserve", (void **)&v->reserve) &&
	          cua_vmm_sym("cuMemAddressFree", (void **)&v->addr_free) &&
	          cua_vmm_sym("cuMemMap", (void **)&v->map) &&
	          cua_vmm_sym("cuMemUnmap", (void **)&v->unmap) &&
	          cua_vmm_sym("cuMemSetAccess", (void **)&v->set_access) &&
	          cua_vmm_sym("cuMemExportToShareableHandle", (void **)&v->export_fd) &&
	          cua_vmm_sym("cuMemImportFromShareableHandle", (void **)&v->import_fd) &&
	          cua_vmm_sym("cuMemGetAllocationGranularity", (void **)&v->granularity);
	if (!ok)
		return false;
	CUmemAllocationProp p = cua_vmm_prop(v->device);
	if (v->granularity(&v->gran, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS ||
	    !v->gran)
		return false;
	v->ok = true;
	return true;
}

static inline size_t cua_vmm_round(const struct cua_vmm *v, size_t bytes)
{
	size_t g = v->gran;
	return ((bytes ? bytes : 1) + g - 1) / g * g;
}

/* Maps `h` (size bytes) read-write for this device at a fresh address. */
static inline CUresult cua_vmm_map_handle(const struct cua_vmm *v,
                                          CUmemGenericAllocationHandle h, size_t size,
                                          CUdeviceptr *out)
{
	CUdeviceptr p = 0;
	CUresult r = v->reserve(&p, size, v->gran, 0, 0);
	if (r != CUDA_SUCCESS)
		return r;
	r = v->map(p, size, 0, h, 0);
	if (r != CUDA_SUCCESS) {
		v->addr_free(p, size);
		return r;
	}
	CUmemAccessDesc ad = {};
	ad.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	ad.location.id = v->device;
	ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	r = v->set_access(p, size, &ad, 1);
	if (r != CUDA_SUCCESS) {
		v->unmap(p, size);
		v->addr_free(p, size);
		return r;
	}
	*out = p;
	return CUDA_SUCCESS;
}

/* A new shareable allocation of `size` (a multiple of v->gran) mapped here;
 * *fd is its exported descriptor (the caller closes it once passed on). */
static inline CUresult cua_vmm_alloc(const struct cua_vmm *v, size_t size, CUdeviceptr *out,
                                     int *fd)
{
	CUmemAllocationProp p = cua_vmm_prop(v->device);
	CUmemGenericAllocationHandle h;
	CUresult r = v->create(&h, size, &p, 0);
	if (r != CUDA_SUCCESS)
		return r;
	r = cua_vmm_map_handle(v, h, size, out);
	if (r == CUDA_SUCCESS) {
		int f = -1;
		r = v->export_fd(&f, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
		if (r == CUDA_SUCCESS)
			*fd = f;
		else {
			v->unmap(*out, size);
			v->addr_free(*out, size);
		}
	}
	v->release(h);   /* the mapping (and the descriptor) keep it alive */
	return r;
}

/* Maps an allocation received as a descriptor; closes fd. */
static inline CUresult cua_vmm_import(const struct cua_vmm *v, int fd, size_t size,
                                      CUdeviceptr *out)
{
	CUmemGenericAllocationHandle h;
	CUresult r = v->import_fd(&h, (void *)(uintptr_t)fd,
	                          CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	close(fd);
	if (r != CUDA_SUCCESS)
		return r;
	r = cua_vmm_map_handle(v, h, size, out);
	v->release(h);
	return r;
}

static inline void cua_vmm_free(const struct cua_vmm *v, CUdeviceptr p, size_t size)
{
	if (!p)
		return;
	v->unmap(p, size);
	v->addr_free(p, size);
}

#endif /* CUA_VMM_CUH */
