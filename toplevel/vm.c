/*
 * vm.c: the virtual machine of a run.  The launcher joins a running pvmd;
 * if there is none it starts a private one (its own PVM_VMID) whose
 * executable path finds the programs' folders and Debian's group server,
 * and halts it at the end.
 */
#include "launcher.h"

#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#define PVM_ROOT_DEFAULT "/usr/lib/pvm3"
#define GROUP_SERVER_DIR "/usr/lib/pvm3/lib"

/* Sets what PVM needs in our environment (inherited by the pvmd). */
static void vm_env(void)
{
	setenv("PVM_ROOT", PVM_ROOT_DEFAULT, 0);
	if (geteuid() == 0)
		setenv("PVM_ALLOW_ROOT", "1", 1);
}

/* Writes the host file of a private VM into PATH; 0 or -1. */
static int vm_hostfile(const struct la_opts *o, const char *path)
{
	char host[PG_HOST_MAX], dir[PG_PATH_MAX];
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	gethostname(host, sizeof(host));
	fputs("* ep=", f);
	for (int i = 0; i < o->nprog; i++) {
		snprintf(dir, sizeof(dir), "%s", o->progs[i].path);
		fprintf(f, "%s:", dirname(dir));
	}
	fprintf(f, "%s:%s/bin/$PVM_ARCH\n%s\n", GROUP_SERVER_DIR,
		getenv("PVM_ROOT"), host);
	return fclose(f);
}

/* Starts a private pvmd; 0 or -1 with the reason printed. */
static int vm_start_private(struct la_run *r)
{
	char vmid[64], dir[] = "/tmp/pangaea-vm.XXXXXX", hostfile[64];
	char *argv[2] = { hostfile, NULL };
	int rc;

	if (!getenv("PVM_VMID")) {
		snprintf(vmid, sizeof(vmid), "pangaea-%d", (int)getpid());
		setenv("PVM_VMID", vmid, 1);
	}
	if (!mkdtemp(dir)) {
		la_error("cannot create a temporary folder: %s", strerror(errno));
		return -1;
	}
	snprintf(hostfile, sizeof(hostfile), "%s/hosts", dir);
	rc = vm_hostfile(r->o, hostfile);
	if (rc == 0)
		rc = pvm_start_pvmd(1, argv, 1);
	unlink(hostfile);
	rmdir(dir);
	if (rc < 0 || pvm_mytid() < 0) {
		la_error("cannot start a PVM daemon (PVM error %d); is package "
			 "'pvm' installed?", rc);
		return -1;
	}
	r->started_vm = 1;
	la_say(r->o, "started a private virtual machine (PVM_VMID=%s)",
	       getenv("PVM_VMID"));
	return 0;
}

/*
 * Whether a pvmd of the current PVM_VMID answers.  Asked in a child
 * process: a failed attempt leaves libpvm bound to that address file,
 * and it prints its complaints on stderr.
 */
static int vm_running(void)
{
	int status, null;
	pid_t pid = fork();

	if (pid < 0)
		return 0;
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		pvm_setopt(PvmAutoErr, 0);
		_exit(pvm_mytid() >= 0 && pvm_exit() >= 0 ? 0 : 1);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

/* Removes the log file of the private pvmd we halted. */
static void vm_remove_log(void)
{
	char path[PG_PATH_MAX];

	snprintf(path, sizeof(path), "/tmp/pvml.%d.%s", (int)getuid(),
		 getenv("PVM_VMID"));
	unlink(path);
}

int la_vm_start(struct la_run *r)
{
	vm_env();
	if (vm_running()) {
		if (pvm_mytid() < 0) {
			la_error("cannot enroll in the running virtual machine");
			return -1;
		}
		la_say(r->o, "joined the running virtual machine%s%s",
		       getenv("PVM_VMID") ? " PVM_VMID=" : "",
		       getenv("PVM_VMID") ? getenv("PVM_VMID") : "");
		return 0;
	}
	return vm_start_private(r);
}

void la_vm_stop(struct la_run *r)
{
	if (!r->started_vm) {
		pvm_exit();
		return;
	}
	/* A halting pvmd sends SIGTERM to every enrolled task, us too. */
	signal(SIGTERM, SIG_IGN);
	pvm_halt();
	signal(SIGTERM, SIG_DFL);
	while (waitpid(-1, NULL, 0) > 0) /* the pvmd was our child */
		;
	vm_remove_log();
}
